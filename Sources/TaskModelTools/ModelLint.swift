import TaskInterchange

/// The audit checklist for moving a Core Data model to SwiftData (and, with `cloudKit`, to CloudKit sync): each
/// finding has a stable code, a severity and the place (entity, property) it is about.
package struct ModelLint: Sendable {
    /// One finding.
    package struct Finding: Sendable, Hashable, Encodable, CustomStringConvertible {
        /// How much it matters.
        package enum Severity: String, Sendable, Hashable, Encodable {
            /// Breaks the move (CloudKit refuses the model, or SwiftData cannot express it).
            case error
            /// Needs work in the app.
            case warning
            /// Worth knowing.
            case note
        }

        /// A stable code (`ML001`…).
        package var code: String
        /// The severity.
        package var severity: Severity
        /// The entity.
        package var entity: String
        /// The property, or nil for the entity.
        package var property: String?
        /// What and what to do.
        package var message: String

        /// `CODE severity Entity.property: message`.
        package var description: String {
            "\(code) \(severity.rawValue) \(entity)\(property.map { "." + $0 } ?? ""): \(message)"
        }
    }

    /// The model linted.
    package let model: ObjectModel
    /// Whether CloudKit's rules apply.
    package let cloudKit: Bool

    /// Creates a linter.
    package init(model: ObjectModel, cloudKit: Bool = false) {
        self.model = model
        self.cloudKit = cloudKit
    }

    /// Every finding, entity by entity in name order, entity findings first.
    package var findings: [Finding] {
        var result: [Finding] = []
        let configured = Set(model.configurations.values.flatMap { $0 })
        for entity in model.entities {
            func add(_ code: String, _ severity: Finding.Severity, _ property: String? = nil, _ message: String) {
                result.append(
                    Finding(code: code, severity: severity, entity: entity.name, property: property, message: message))
            }
            if SwiftNames.collidingTypes.contains(entity.name) {
                add(
                    "ML010", .warning, nil,
                    """
                    the name collides with the Swift/SwiftData/Foundation type \(entity.name); \
                    generated code keeps the entity name and gives the class another name in Swift
                    """
                )
            }
            if entity.isAbstract {
                add(
                    "ML009", .warning, nil,
                    """
                    abstract entity: SwiftData has no abstract models (model \
                    inheritance needs iOS 26); never insert \(entity.name) itself
                    """
                )
            }
            if entity.superentity != nil {
                add(
                    "ML014", .note, nil,
                    "sub-entity of \(entity.superentity!): SwiftData model inheritance needs iOS 26 / macOS 26")
            }
            if !model.configurations.isEmpty && !configured.contains(entity.name) {
                add(
                    "ML011", .warning, nil,
                    """
                    in no configuration (the model has \(model.configurations.keys.sorted().joined(separator: ", "))): \
                    a container using a configuration will not store it
                    """
                )
            }
            for constraint in entity.uniquenessConstraints {
                add(
                    "ML002", cloudKit ? .error : .note, constraint.joined(separator: ","),
                    cloudKit
                        ? """
                        unique constraint on \(constraint.joined(separator: ", ")): \
                        CloudKit does not support unique constraints
                        """
                        : """
                        unique constraint on \(constraint.joined(separator: ", ")): becomes \
                        \(constraint.count == 1 ? "@Attribute(.unique)" : "#Unique (iOS 18)") in SwiftData
                        """
                )
            }
            for name in entity.fetchedProperties {
                add("ML008", .warning, name, "fetched property: SwiftData has none; use a FetchDescriptor in code")
            }
            for attribute in entity.attributes {
                if attribute.derivation != nil {
                    add(
                        "ML007", .warning, attribute.name,
                        "derived attribute (\(attribute.derivation!)): SwiftData has none; compute it in Swift")
                }
                if attribute.type == .transformable && (attribute.valueTransformerName ?? "").isEmpty {
                    add(
                        "ML006", .warning, attribute.name,
                        """
                        transformable without a transformer name: the deprecated NSKeyedUnarchiveFromData \
                        is used; name a secure transformer (SwiftData: .transformable(by:))
                        """
                    )
                }
                if cloudKit && !attribute.isOptional && !attribute.isTransient && attribute.defaultValue == nil
                    && attribute.derivation == nil
                {
                    add(
                        "ML004", .error, attribute.name,
                        """
                        required attribute without a default value: CloudKit \
                        needs every attribute optional or with a default
                        """
                    )
                }
                if SwiftNames.keywords.contains(attribute.name) {
                    add("ML010", .note, attribute.name, "the name is a Swift keyword: it is written in backticks")
                }
                if SwiftNames.persistentModelMembers.contains(attribute.name) {
                    add(
                        "ML013", .error, attribute.name,
                        """
                        the name is a member every SwiftData model has: \
                        rename it in Swift (originalName: keeps the column)
                        """
                    )
                }
            }
            let members = SwiftNames.memberNames(of: entity, in: model)
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name)
            where !SwiftNames.keeps(name, as: members[name] ?? name) {
                add(
                    "ML015", .note, name,
                    """
                    Swift cannot name the property \(name) as it is here (no Swift name, a metatype member, or \
                    another property's spelling): generated code calls it \(members[name] ?? name) and \
                    originalName: keeps the column
                    """
                )
            }
            for relationship in entity.relationships {
                if relationship.isOrdered {
                    add(
                        "ML001", cloudKit ? .error : .warning, relationship.name,
                        """
                        ordered relationship: SwiftData arrays keep no \
                        order\(cloudKit ? " and CloudKit does not support ordered relationships" : ""); \
                        add a position attribute and sort by it
                        """
                    )
                }
                if relationship.deleteRule == .deny {
                    add(
                        "ML005", cloudKit ? .error : .note, relationship.name,
                        cloudKit
                            ? "Deny delete rule: CloudKit does not support it"
                            : "Deny delete rule: SwiftData has .deny, but check the app handles the refused save"
                    )
                }
                if cloudKit && !relationship.isOptional {
                    add(
                        "ML003", .error, relationship.name,
                        "required relationship: CloudKit needs every relationship optional")
                }
                if cloudKit && relationship.inverse == nil {
                    add(
                        "ML012", .error, relationship.name,
                        "no inverse: CloudKit needs an inverse for every relationship")
                }
                if SwiftNames.keywords.contains(relationship.name) {
                    add("ML010", .note, relationship.name, "the name is a Swift keyword: it is written in backticks")
                }
                if SwiftNames.persistentModelMembers.contains(relationship.name) {
                    add(
                        "ML013", .error, relationship.name,
                        """
                        the name is a member every SwiftData model has: \
                        rename it in Swift (originalName: keeps the column)
                        """
                    )
                }
            }
        }
        return result
    }

    /// One finding per group of a store's records that a uniqueness constraint of the linted version would refuse
    /// (`DuplicateCheck`): a migration into it needs the mapping's `modelChange.duplicates` to say which to keep.
    package static func duplicateFindings(_ groups: [VersionMapping.DuplicateGroup]) -> [Finding] {
        groups.map { group in
            Finding(
                code: "ML016", severity: .warning, entity: group.entity,
                property: group.properties.joined(separator: ","),
                message: "\(group.description): the store's records share the values of this uniqueness "
                    + "constraint; a migration into this version is refused unless the mapping's modelChange.duplicates says "
                    + "which to keep (newest by a date attribute, or lowestKey)")
        }
    }
}
