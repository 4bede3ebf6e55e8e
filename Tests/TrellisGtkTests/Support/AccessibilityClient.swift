import Foundation
import TrellisCore
import TrellisTesting
import XCTest

/// A real AT-SPI client on the app's accessibility tree, as a screen reader is: a persistent
/// `atspi-driver.py` (pyatspi) answering one JSON command per line (see the script).
final class AccessibilityClient {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lines = LineReader()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi-driver.py")

    /// Connects to the app of `driver` (its window must be up).
    init(_ driver: AppDriver, file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script.path, "\(driver.process.processIdentifier)"]
        process.standardInput = input
        process.standardOutput = output
        try process.runOneAtATime()
        lines.start(output.fileHandleForReading)
        let ready = try reply(timeout: 30, file: file, line: line)
        guard ready["ready"] == true else { throw Failure.notReady(ready.jsonString) }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    /// Sends `command` and returns its reply (failing the test when it is not `ok`).
    @discardableResult
    func send(_ command: JSONValue, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        input.fileHandleForWriting.write(Data((command.jsonString + "\n").utf8))
        let answer = try reply(timeout: 30, file: file, line: line)
        if answer["ok"] != true { XCTFail("AT-SPI \(command.jsonString): \(answer.jsonString)", file: file, line: line) }
        return answer
    }

    /// The node with `role` and `name` (`found`: false when there is none).
    func find(_ role: String, _ name: String?, within window: String? = nil,
              file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        var command: JSONValue = ["op": "find", "role": .string(role)]
        if let name { command["name"] = .string(name) }
        if let window { command["within"] = .string(window) }
        return try send(command, file: file, line: line)
    }

    /// The first node with `role` whose name contains `text`.
    func find(_ role: String, containing text: String, within window: String? = nil,
              file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        var command: JSONValue = ["op": "find", "role": .string(role), "contains": .string(text)]
        if let window { command["within"] = .string(window) }
        return try send(command, file: file, line: line)
    }

    /// Asks again until `condition` holds for the node (GTK updates the tree at its next frame),
    /// failing after `timeout` seconds; returns the last answer.
    @discardableResult
    func find(_ role: String, _ name: String?, within window: String? = nil, until condition: (JSONValue) -> Bool,
              timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        try poll("\(role) “\(name ?? "*")”", until: condition, timeout: timeout, file: file, line: line) {
            try find(role, name, within: window, file: file, line: line)
        }
    }

    /// The first node with `role` whose name contains `text`, once `condition` holds for it.
    @discardableResult
    func find(_ role: String, containing text: String, within window: String? = nil, until condition: (JSONValue) -> Bool,
              timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        try poll("\(role) with “\(text)”", until: condition, timeout: timeout, file: file, line: line) {
            try find(role, containing: text, within: window, file: file, line: line)
        }
    }

    private func poll(_ what: String, until condition: (JSONValue) -> Bool, timeout: TimeInterval,
                      file: StaticString, line: UInt, _ ask: () throws -> JSONValue) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var node = try ask()
        while !condition(node) && Date() < deadline {
            usleep(100_000)
            node = try ask()
        }
        if !condition(node) { XCTFail("\(what) never reached the expected state: \(node.jsonString)", file: file, line: line) }
        return node
    }

    /// The node that has the keyboard focus, once `condition` holds for it (within `timeout` s).
    @discardableResult
    func focused(until condition: (JSONValue) -> Bool = { _ in true }, timeout: TimeInterval = 10,
                 file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var node = try send(["op": "focused"], file: file, line: line)
        while !condition(node) && Date() < deadline {
            usleep(100_000)
            node = try send(["op": "focused"], file: file, line: line)
        }
        if !condition(node) { XCTFail("the focus never reached the expected node: \(node.jsonString)", file: file, line: line) }
        return node
    }

    /// Performs AT-SPI action `action` of the node `role` named `name`, as a screen reader does.
    func perform(_ action: String, on role: String, named name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let answer = try send(["op": "do", "role": .string(role), "name": .string(name), "action": .string(action)], file: file, line: line)
        XCTAssertEqual(answer["done"], true, "\(action) on \(role) “\(name)”", file: file, line: line)
    }

    /// The nodes named after a GTK class ("list item: GtkListItemWidget"), in every window.
    func classNames(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try send(["op": "classNames"], file: file, line: line)["nodes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The names of the app's windows (its frames and dialogs).
    func windows(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try send(["op": "windows"], file: file, line: line)["names"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private func reply(timeout: TimeInterval, file: StaticString, line: UInt) throws -> JSONValue {
        guard let text = lines.next(timeout: timeout) else {
            XCTFail("the AT-SPI client did not answer within \(Int(timeout)) s", file: file, line: line)
            throw Failure.noReply
        }
        return try JSONValue(jsonString: text, source: "the AT-SPI client")
    }

    enum Failure: Error { case noReply, notReady(String) }
}
