import Foundation

/// Ends this process once the shell that started it is gone.
///
/// A shell that exits or crashes closes the socket, and the main thread, reading it, returns.
/// But a plugin stuck in an endless loop on the main thread never reads again, and the shell's
/// deadline that would kill it died with the shell: the process would spin on for ever. So a
/// thread of its own checks, twice a second, that the parent is still the shell (a process
/// whose parent exits gets a new one). `PR_SET_PDEATHSIG` is not used: it fires when the
/// *thread* that spawned the process ends, and the shell spawns plugins from short-lived
/// threads.
enum ShellWatch {
    static func start() {
        let shell = getppid()
        Thread.detachNewThread {
            while getppid() == shell { usleep(500_000) }
            FileHandle.standardError.write(Data("trellis-plugin-host: the shell (pid \(shell)) is gone; ending\n".utf8))
            _exit(3)
        }
    }
}
