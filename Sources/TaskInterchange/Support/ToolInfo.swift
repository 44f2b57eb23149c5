/// The tool's name and version, as written into archives' `generator`.
public enum ToolInfo {
    /// `tasks`.
    public static let name = "tasks"
    /// The release version.
    public static let version = "0.1.0"
}
