extension JSONScanner {
    /// Moves past one value of any kind, checking its syntax, without allocating and without recursion.
    ///
    /// Used to skip whole arrays of records the caller does not want, and unknown members.
    ///
    /// - Throws: `JSONScanError` for malformed input or nesting beyond the budget.
    mutating func skipValue() throws(JSONScanError) {
        // One bit per open container of this value, 1 for objects; the depth budget keeps it within 64 bits.
        var containers: UInt64 = 0
        var level = 0
        while true {
            switch try peekKind() {
            case .string:
                try skipString()
            case .number:
                _ = try readNumber()
            case .bool:
                _ = try readBool()
            case .null:
                try readNull()
            case .object:
                guard level < 64 else {
                    throw error(.tooDeep, "arrays and objects are nested more than 64 levels deep")
                }
                try beginObject()
                containers = containers << 1 | 1
                level += 1
                if try nextMember() {
                    try skipString()
                    try expectColon()
                    continue
                }
                containers >>= 1
                level -= 1
            case .array:
                guard level < 64 else {
                    throw error(.tooDeep, "arrays and objects are nested more than 64 levels deep")
                }
                try beginArray()
                containers <<= 1
                level += 1
                if try nextElement() { continue }
                containers >>= 1
                level -= 1
            }
            // A value is complete: move to the next sibling, closing finished containers on the way out.
            while level > 0 {
                if containers & 1 == 1 {
                    if try nextMember() {
                        try skipString()
                        try expectColon()
                        break
                    }
                } else if try nextElement() {
                    break
                }
                containers >>= 1
                level -= 1
            }
            if level == 0 { return }
        }
    }
}
