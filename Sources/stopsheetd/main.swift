import Glibc
import StopSheetDaemon

exit(Daemon.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: processEnvironment()))
