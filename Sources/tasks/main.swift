import Foundation

// A descriptor 0, 1 or 2 the parent left closed gets /dev/null, as long-lived Unix tools do; otherwise the first file
// opened (a snapshot's lock file, a new store) would take its number, and output or messages would be written into it.
// stdout's is opened for reading only: data written to a closed stdout fails (EBADF, exit 74) instead of vanishing.
for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
    let null = open("/dev/null", descriptor == STDERR_FILENO ? O_WRONLY : O_RDONLY)
    if null >= 0 && null != descriptor {
        dup2(null, descriptor)
        close(null)
    }
}
// Writes to a closed pipe must fail with EPIPE (reported and exit 74), not kill the process.
signal(SIGPIPE, SIG_IGN)
SignalTrap.install()
exit(Tasks.main(Array(CommandLine.arguments.dropFirst())))
