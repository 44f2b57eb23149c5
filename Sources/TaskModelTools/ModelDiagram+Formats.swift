import Foundation

/// The two texts of a diagram. Every name is written the way its format reads it back: Mermaid's class names and
/// members as they are (Core Data names are identifiers), DOT's in quotes with `"` and `\` escaped, and in record
/// labels `{}|<>` too.
extension ModelDiagram {
    /// Colours of marked entities, in both formats.
    static func colour(_ mark: Mark) -> String {
        switch mark {
        case .added: return "#d7f5d7"
        case .removed: return "#f8d4d4"
        case .renamed, .converted, .changed: return "#fbf0c8"
        }
    }

    /// A member as one line: `Type name [mark]`.
    static func line(_ member: Member) -> String {
        "\(member.type) \(member.name)" + (member.mark.map { " [\($0)]" } ?? "")
    }

    /// The label of an edge: its relationship names, which sides are ordered, its join table and its mark.
    static func label(_ edge: Edge) -> String {
        var label = edge.name + (edge.inverse.map { " / \($0)" } ?? "")
        if !edge.ordered.isEmpty { label += " [ordered: \(edge.ordered.joined(separator: ", "))]" }
        if let table = edge.joinTable { label += " [join table \(table)]" }
        if let mark = edge.mark { label += " [\(mark)]" }
        return label
    }

    func mermaid() -> String {
        var lines = ["classDiagram", "  direction LR"]
        for box in boxes {
            lines.append("  class \(box.name) {")
            let annotations = (box.isAbstract ? ["abstract"] : []) + (box.mark.map { ["\($0)"] } ?? [])
            if !annotations.isEmpty { lines.append("    <<\(annotations.joined(separator: ", "))>>") }
            for member in box.members { lines.append("    " + Self.line(member)) }
            lines.append("  }")
        }
        for (parent, child) in inheritance { lines.append("  \(parent) <|-- \(child)") }
        for edge in edges {
            let link = edge.inverse == nil ? "-->" : "--"
            lines.append(
                "  \(edge.from) \"\(edge.fromCount)\" \(link) \"\(edge.toCount)\" \(edge.to) : \(Self.label(edge))")
        }
        for box in boxes {
            if let mark = box.mark { lines.append("  style \(box.name) fill:\(Self.colour(mark))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func dot() -> String {
        var lines = [
            "digraph model {", "  rankdir=LR;", "  node [shape=record, fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        for box in boxes {
            var title = Self.record(box.name)
            if box.isAbstract { title += "\\n(abstract)" }
            if let mark = box.mark { title += "\\n(\(Self.record("\(mark)")))" }
            let members = box.members.map { Self.record(Self.line($0)) + "\\l" }.joined()
            var attributes = ["label=\(Self.quoted("{\(title)|\(members)}"))"]
            if let mark = box.mark { attributes += ["style=filled", "fillcolor=\(Self.quoted(Self.colour(mark)))"] }
            lines.append("  \(Self.quoted(Self.escaped(box.name))) [\(attributes.joined(separator: ", "))];")
        }
        for (parent, child) in inheritance {
            lines.append(
                "  \(Self.quoted(Self.escaped(child))) -> \(Self.quoted(Self.escaped(parent))) "
                    + "[arrowhead=empty, style=dashed];")
        }
        for edge in edges {
            let arrow = edge.inverse == nil ? "arrowhead=vee" : "arrowhead=none"
            lines.append(
                "  \(Self.quoted(Self.escaped(edge.from))) -> \(Self.quoted(Self.escaped(edge.to))) "
                    + "[label=\(Self.quoted(Self.escaped(Self.label(edge)))), taillabel=\(Self.quoted(edge.fromCount)), "
                    + "headlabel=\(Self.quoted(edge.toCount)), \(arrow)];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text inside a DOT string: its backslashes and quotes escaped (DOT's own escapes, such as `\l`, are added after).
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// A DOT string literal of already escaped text.
    static func quoted(_ text: String) -> String {
        "\"" + text + "\""
    }

    /// Text inside a record label: escaped, and its field separators and ports too.
    static func record(_ text: String) -> String {
        var result = ""
        for character in escaped(text) {
            if "{}|<>".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
