import Foundation
import TrellisCore
import XCTest

/// A person's keyboard and pointer on the app's window: xdotool's X test events, which reach
/// GTK exactly as a real key press or click does.
struct RealInput {
    static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
    /// The X window, focused for the keyboard.
    let window: String

    /// Skips (or, under the README's test command, fails) without xdotool.
    static func require() throws {
        guard FileManager.default.isExecutableFile(atPath: xdotool.path) else {
            if ProcessInfo.processInfo.environment["TRELLIS_REQUIRE_GUI"] == "1" { XCTFail("xdotool is missing: bash .ci/test installs it") }
            throw XCTSkip("needs xdotool")
        }
    }

    /// The visible X window titled `title` (a regular expression), focused.
    init(windowTitled title: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try Self.require()
        let search = try CommandRunner.run(Self.xdotool, ["search", "--sync", "--onlyvisible", "--name", title])
        window = try XCTUnwrap(search.stdout.split(separator: "\n").last.map(String.init), "no window \(title): \(search.stderr)",
                               file: file, line: line)
        try run(["windowfocus", "--sync", window], file: file, line: line)
    }

    /// Presses each key (xdotool names: "Tab", "shift+Tab", "ctrl+s", "Return", "F9"), through
    /// the X test extension to the focused window (as a keyboard does: not sent to the window).
    func press(_ keys: String..., file: StaticString = #filePath, line: UInt = #line) throws {
        try run(["key", "--clearmodifiers"] + keys, file: file, line: line)
    }

    /// Types `text` as keystrokes.
    func type(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try run(["type", text], file: file, line: line)
    }

    /// Clicks the middle of `extents` ([x, y, width, height] in window coordinates).
    func click(_ extents: JSONValue?, file: StaticString = #filePath, line: UInt = #line) throws {
        let box = try XCTUnwrap(extents?.arrayValue?.compactMap(\.doubleValue), "nothing to click", file: file, line: line)
        XCTAssertEqual(box.count, 4, file: file, line: line)
        try click(x: box[0] + box[2] / 2, y: box[1] + box[3] / 2, file: file, line: line)
    }

    /// Clicks at (`x`, `y`) in window coordinates.
    func click(x: Double, y: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        try run(["mousemove", "--window", window, String(Int(x)), String(Int(y)), "click", "1"], file: file, line: line)
    }

    private func run(_ arguments: [String], file: StaticString, line: UInt) throws {
        let result = try CommandRunner.run(Self.xdotool, arguments)
        XCTAssertEqual(result.status, 0, "xdotool \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
    }
}
