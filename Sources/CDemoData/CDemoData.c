#include "CDemoData.h"

// `#embed` is C23; the package's C is compiled as C17, where clang takes it as an extension.
#pragma clang diagnostic ignored "-Wc23-extensions"

// Paths relative to this file, as `#include "…"` takes them: the files stay where the daemon's
// other sources, the tests and the nspawn test's fake upstream find them.
static const unsigned char alerts[] = {
#embed "../StopSheetDaemon/Demo/alerts.json"
};
static const unsigned char stops[] = {
#embed "../StopSheetDaemon/Demo/stops.csv"
};

const unsigned char *stopsheet_demo_alerts(size_t *count) {
    *count = sizeof alerts;
    return alerts;
}

const unsigned char *stopsheet_demo_stops(size_t *count) {
    *count = sizeof stops;
    return stops;
}
