import CGtk
import Foundation
@testable import TrellisGtk
import XCTest

/// A signal handler is connected only when its C signature fits the signal as GObject
/// describes it (`g_signal_query`): a `notify::` handler without its `GParamSpec *` — the
/// thunk that crashed Preferences' drop-downs — a misspelt signal or property, an argument of
/// the wrong type are refused, loudly in a debug build (an assertion stops the process) and
/// with an error and no connection otherwise. XCTest on Linux runs test methods on the main
/// thread, hence `MainActor.assumeIsolated`.
final class SignalCheckTests: XCTestCase {
    /// Set in the child process of ``testARefusedHandlerStopsADebugBuildLoudly()``.
    private static let crashVariable = "TRELLIS_SIGNAL_CHECK_CRASH"

    override func setUpWithError() throws {
        try AppDriver.requireDisplay()
        guard gtk_init_check() != 0 else { throw XCTSkip("GTK cannot open the display") }
    }

    /// Runs `body` with refusals recorded instead of asserting; returns them.
    @MainActor private static func refusals(_ body: () -> Void) -> [String] {
        var messages: [String] = []
        let original = Signals.reportRefusal
        Signals.reportRefusal = { messages.append($0) }
        defer { Signals.reportRefusal = original }
        body()
        return messages
    }

    /// A drop-down listing three choices, as Preferences shows one.
    @MainActor private static func dropDown() -> DropDown {
        FormWidgets.dropDown(["app", "fixed", "track"], selected: 0)
    }

    func testANotifyHandlerWithoutItsParamSpecIsRefusedAndNeverConnected() {
        var connected: UInt?
        let messages = MainActor.assumeIsolated {
            Self.refusals {
                let dropDown = Self.dropDown()
                // The mismatch of FormWidgets before the check: the void thunk on notify::selected.
                connected = dropDown.connect("notify::selected") { XCTFail("the refused handler ran") }
                gtk_drop_down_set_selected(dropDown.object.opaque, 2)
            }
        }
        XCTAssertNil(connected)
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages.first?.contains("GtkDropDown::notify is (instance, GParam, user data) -> void") == true, "\(messages)")
        XCTAssertTrue(messages.first?.contains("but the handler was written for (instance, user data) -> void") == true, "\(messages)")
    }

    func testTheFittingNotifyHandlerIsConnectedAndRunsOnTheChange() {
        @MainActor final class Seen { var selected: [UInt32] = [] }
        let seen = MainActor.assumeIsolated { Seen() }
        let messages = MainActor.assumeIsolated {
            Self.refusals {
                let dropDown = Self.dropDown()
                let id = dropDown.connectNotify("selected") { [weak dropDown] in
                    guard let dropDown else { return }
                    seen.selected.append(gtk_drop_down_get_selected(dropDown.object.opaque))
                }
                XCTAssertNotNil(id)
                gtk_drop_down_set_selected(dropDown.object.opaque, 2)
                gtk_drop_down_set_selected(dropDown.object.opaque, 1)
            }
        }
        XCTAssertEqual(messages, [])
        XCTAssertEqual(MainActor.assumeIsolated { seen.selected }, [2, 1])
    }

    func testAMisspeltSignalOrPropertyAndAWrongArgumentAreRefused() {
        let messages = MainActor.assumeIsolated {
            Self.refusals {
                let button = Button(gtk_button_new_with_label("Save"))
                XCTAssertNil(button.connect("clickd") {})
                XCTAssertNil(button.connectNotify("lable") {})
                XCTAssertNil(button.connect("clicked", unsignedInteger: { _ in }), "clicked passes no guint")
                let factory = ListItemFactory(taking: GObjectPointer(gtk_signal_list_item_factory_new())!)
                XCTAssertNil(factory.connect("bind", object: gtk_widget_get_type()) { _ in }, "bind passes a GObject, not a widget")
                XCTAssertNotNil(factory.connect("bind", object: g_object_get_type()) { _ in })
                XCTAssertNotNil(button.connect("clicked") {})
            }
        }
        XCTAssertEqual(messages, [
            "GtkButton has no signal \"clickd\"",
            "GtkButton has no property \"lable\" to notify",
            "GtkButton::clicked is (instance, user data) -> void, but the handler was written for (instance, guint, user data) -> void",
            "GtkSignalListItemFactory::bind is (instance, GObject, user data) -> void, "
                + "but the handler was written for (instance, GtkWidget *, user data) -> void",
        ])
    }

    /// The default reporting, in a child process running the test below: a debug build stops at
    /// the refused connection (an assertion), naming the signal; it does not go on to crash
    /// later in C.
    func testARefusedHandlerStopsADebugBuildLoudly() throws {
        #if DEBUG
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0])
        let result = try CommandRunner.run(bundle, ["TrellisGtkTests.SignalCheckTests/testMismatchedConnectionInAChildProcess"],
                                           environment: [Self.crashVariable: "1"])
        XCTAssertNotEqual(result.status, 0, "the child went on after the refused connection: \(result.stdout)")
        XCTAssertTrue(result.stderr.contains("signal handler refused: GtkDropDown::notify is"), result.stderr)
        XCTAssertFalse(result.stdout.contains("went on"), result.stdout)
        #else
        throw XCTSkip("release builds log the refusal instead (testAMisspeltSignalOrProperty… checks the connection is not made)")
        #endif
    }

    /// Only in the child process of the test above: connects a mismatched handler with the
    /// default reporting.
    func testMismatchedConnectionInAChildProcess() throws {
        guard ProcessInfo.processInfo.environment[Self.crashVariable] == "1" else {
            throw XCTSkip("run by testARefusedHandlerStopsADebugBuildLoudly in a child process")
        }
        MainActor.assumeIsolated {
            let dropDown = Self.dropDown()
            dropDown.connect("notify::selected") {}
            print("went on")
        }
    }
}
