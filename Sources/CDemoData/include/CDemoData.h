#ifndef CDEMODATA_H
#define CDEMODATA_H
// The demo snapshot (Sources/StopSheetDaemon/Demo/), linked into the binary by the C compiler's
// `#embed`, which costs it nothing. SwiftPM's `.embedInCode` wrote the same bytes as a Swift array
// literal of 132,413 elements, whose compilation took 22 s of CPU in every debug build, 23 s
// under AddressSanitizer and 31 s under ThreadSanitizer.
#include <stddef.h>

/// `Demo/alerts.json`, the CTA alerts capture of 2015-02-14; `count` receives its length.
const unsigned char *stopsheet_demo_alerts(size_t *count);
/// `Demo/stops.csv`, the 2021 'L' stops.
const unsigned char *stopsheet_demo_stops(size_t *count);

#endif
