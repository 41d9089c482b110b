#ifndef CZIP_SHIM_H
#define CZIP_SHIM_H
// libzip: GTFS feed archives (stored, deflated, ZIP64), read from memory.
#include <zip.h>
#endif
