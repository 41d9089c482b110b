
import Glibc

// `make bench`'s tools, one binary (scripts/bench.sh drives them):
//   loadgen      closed-loop load: epoll, N connections over T threads, P requests in flight each
//   echo-server  the trivial baseline server the load generator is checked against
//   launch       exec → READY=1 timing; leaves the daemon serving
//   prime-redis  stores stopsheetd's exact answer line in Redis
//   snapshot     Snapshot.build timing for the real set and synthetic sets 10× and 100× larger
//   step-free    what step-free now adds to the snapshot build on a large synthetic metro
//   gtfs-feed    writes a synthetic GTFS feed at CTA's scale; gtfs-decode times decoding one
//   fanout       push: N subscribers, one refresh that changes every sheet → time to the last
//   facilities   lift status: a SIRI-FM body of 4,000 conditions parsed; one unit changed → stations re-encoded
//   lift-feeds   DB FaSta (3,500 units) and IDFM (850 lifts, CSV and JSON) decoded and joined; the memory they hold

// A server that goes away must show up as an error, not kill the tool mid-report.
signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: stopsheet-bench loadgen|echo-server|launch|prime-redis|snapshot|fresh-build|step-free|gtfs-feed|gtfs-decode|fanout|facilities|lift-feeds [--option value …]") }
let options = Options(arguments.dropFirst(2))
switch arguments[1] {
case "loadgen": runLoadGenerator(options)
case "echo-server": runEchoServer(options)
case "launch": runLaunch(options)
case "prime-redis": runPrimeRedis(options)
case "snapshot": runSnapshotBench(options)
case "fresh-build": runFreshBuildBench(options)
case "step-free": runStepFreeBench(options)
case "gtfs-feed": runGTFSFeedGenerator(options)
case "gtfs-decode": runGTFSDecodeBench(options)
case "fanout": runFanOutBench(options)
case "facilities": runFacilitiesBench(options)
case "lift-feeds": runLiftFeedsBench(options)
default: fail("unknown subcommand \(arguments[1])")
}
