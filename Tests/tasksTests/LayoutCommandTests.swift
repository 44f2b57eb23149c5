import Foundation
import Testing

/// What a user sees of the layout and the cell accounting: `inspect` names the one place where a store's tables
/// differ from the layout its model computes, and `export` says that every stored value travelled — for the
/// messenger store whose message texts live in `ZTEXT1` and whose join columns were numbered.
@Suite(
    "tasks: layout and cell accounting",
    .enabled(
        if: SharedFixtures.exists("real-stores/store2-100-0__wireapp_wire-ios-data-model.sqlite"),
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct LayoutCommandTests {
    @Test("inspect shows the layout's differences; export accounts for every value, --json-summary too")
    func inspectAndExport() throws {
        let scratch = try Scratch()
        let store = try SharedFixtures.copy(
            "real-stores/store2-100-0__wireapp_wire-ios-data-model.sqlite", into: scratch, as: "wire.sqlite")
        let inspect = try TasksBinary.run(["inspect", "--store", store])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(
            inspect.stdout.contains(
                "  UserClient.trustedByClients: the join table is Z_25TRUSTEDBYCLIENTS in the store, "
                    + "computed Z_25TRUSTEDCLIENTS\n"))

        let export = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json"), "--strict"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("  every stored value exported\n"))
        #expect(
            export.stderr.contains(
                "note: ZMESSAGE.ZDECRYPTIONERRORCODE: values-outside-entity: values in ClientMessage rows"))
        let json = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("b.json"), "--json-summary"])
        #expect(json.status == 0)
        #expect(json.stderr.contains("\"notExported\" : 0"), "\(json.stderr)")
        #expect(json.stderr.contains("\"outsideEntity\" : 6"), "\(json.stderr)")
    }
}
