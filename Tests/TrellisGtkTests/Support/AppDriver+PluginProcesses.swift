import Foundation
import TrellisTesting

extension AppDriver {
    /// The number of the app's plugin-host processes running plugin `id`, once it is
    /// `expected` (a process starts or ends shortly after it is told to), or as it is at the
    /// deadline (`testDeadlineSeconds`).
    func pluginProcesses(_ id: String, expecting expected: Int) throws -> Int {
        var count = -1
        let deadline = Date().addingTimeInterval(testDeadlineSeconds)
        while Date() < deadline {
            let found = try CommandRunner.tool("pgrep", ["-P", "\(process.processIdentifier)", "-f", "trellis-plugin-host .* \(id)$"])
            count = found.stdout.split(separator: "\n").count
            if count == expected { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return count
    }
}
