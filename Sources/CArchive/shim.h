#ifndef CARCHIVE_SHIM_H
#define CARCHIVE_SHIM_H
// libarchive: GTFS feed zips (stored, deflate, bzip2, LZMA, xz, zstd; ZIP64), read from memory.
#include <archive.h>
#include <archive_entry.h>
#endif
