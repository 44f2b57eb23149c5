/// The tool's name and version, as written into archives' `generator`.
package enum ToolInfo {
    /// `tasks`.
    package static let name = "tasks"
    /// The release version.
    package static let version = "0.1.0"
}
