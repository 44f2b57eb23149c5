import Foundation

// Writes to a closed pipe must fail with EPIPE (reported and exit 74), not kill the process.
signal(SIGPIPE, SIG_IGN)
SignalTrap.install()
exit(Tasks.main(Array(CommandLine.arguments.dropFirst())))
