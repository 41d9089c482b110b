#!/usr/bin/env python3
"""A small GTFS feed for stopsheetd's tests. Standard library only.

    python3 make_feed.py --out DIR [--method M] [--folder NAME] [--descriptors] [--zip64] [--mac]
                         [--damage D] [--dir]

stops.txt is the REAL CTA rows of 2022-01 (Tests/Fixtures/gtfs_stops_2022-01.RAIL_SUBSET.txt),
verbatim. routes.txt, trips.txt and stop_times.txt are MADE FOR THE TEST: one trip per line per
platform, the lines taken from the real 'L' stops export of 2021 (Tests/Fixtures/L_stops_2021.csv,
its route flags; Purple Express trips run as route P, as in CTA's GTFS, whose route ids are
CTA's canonical ones), and bus trips serving the bus bays CTA parents to rail stations.

Writes DIR/feed.zip, or with --dir the unpacked tables in DIR/feed/. The zip is written by Python's
zipfile in the structures agencies' feeds really come in; nothing of it is captured:
  --method      stored, deflated (the default), bzip2 or lzma (zip method 14, as Spain's Renfe);
  --folder      entries inside NAME/ (as `zip -r feed.zip NAME`);
  --descriptors written to a stream that cannot seek, so each entry's CRC-32 and sizes follow its
                data in a data descriptor and its local header has zeros (as `zip` to a pipe);
  --zip64       every size, offset and count in ZIP64 records (the classic fields say 0xFFFFFFFF);
  --mac         as macOS's Archive Utility zips a folder: data descriptors (the local header
                giving the compressed size all the same), directory entries, a .DS_Store and an
                AppleDouble `__MACOSX/NAME/._x.txt` beside each table (their bytes hand-made in
                the AppleDouble format);
  --damage      one fault in stop_times.txt: crc (one byte of its data changed: with --method
                stored only its CRC-32 can tell), encrypted (the encryption flag set, as a
                password-protected zip), method (its method number patched to 97, one no
                library here reads) or truncated (the archive cut inside its data; the
                central directory is then gone, as from a cut download).
"""

import argparse
import csv
import io
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Fixtures")
FLAGS = {"RED": "Red", "BLUE": "Blue", "G": "G", "BRN": "Brn", "P": "P", "Pexp": "P", "Y": "Y", "Pnk": "Pink", "O": "Org"}


def tables():
    with open(os.path.join(FIXTURES, "gtfs_stops_2022-01.RAIL_SUBSET.txt"), "rb") as f:
        stops = f.read()
    gtfs_ids = {row["stop_id"] for row in csv.DictReader(io.StringIO(stops.decode("utf-8-sig")))}
    routes = ["route_id,route_short_name,route_long_name,route_type"]
    routes += [f"{route},,{route} (made for the test),1" for route in sorted(set(FLAGS.values()))]
    routes += ["22,22,Clark (made for the test),3", "95,95,95th (made for the test),3"]
    trips = ["route_id,service_id,trip_id,direction_id"]
    times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    with open(os.path.join(FIXTURES, "L_stops_2021.csv"), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["STOP_ID"] not in gtfs_ids:
                continue
            for flag, route in FLAGS.items():
                if row[flag].strip().lower() == "true":
                    trip = f"{route}-{row['STOP_ID']}-{flag}"
                    trips.append(f"{route},wk,{trip},0")
                    times.append(f"{trip},08:00:00,08:00:00,{row['STOP_ID']},1")
    for bay in sorted(i for i in gtfs_ids if i.startswith(("14", "17"))):
        trips.append(f"95,wk,bus-{bay},0")
        times.append(f"bus-{bay},09:00:00,09:00:00,{bay},1")
    text = lambda lines: ("\r\n".join(lines) + "\r\n").encode()
    return {"stops.txt": stops, "routes.txt": text(routes), "trips.txt": text(trips), "stop_times.txt": text(times),
            "agency.txt": b"agency_id,agency_name,agency_url,agency_timezone\r\nCTA,Chicago Transit Authority,https://www.transitchicago.com,America/Chicago\r\n"}


METHODS = {"stored": zipfile.ZIP_STORED, "deflated": zipfile.ZIP_DEFLATED, "bzip2": zipfile.ZIP_BZIP2, "lzma": zipfile.ZIP_LZMA}
# An AppleDouble header (magic, version 2, "Mac OS X" filler, no entries): what macOS puts in
# `__MACOSX/._x.txt` for a file with extended attributes, cut to its fixed part.
APPLE_DOUBLE = struct.pack(">II16sH", 0x00051607, 0x00020000, b"Mac OS X        ", 0)


class Unseekable(io.RawIOBase):
    """A write-only stream that cannot seek: zipfile then writes data descriptors."""

    def __init__(self, out):
        self.out = out

    def writable(self):
        return True

    def write(self, data):
        return self.out.write(data)


def write_zip(path, args):
    method = METHODS[args.method]
    prefix = args.folder + "/" if args.folder else ""
    if args.zip64:
        # zipfile writes ZIP64 records above these limits only: at zero, every one is written.
        zipfile.ZIP64_LIMIT = zipfile.ZIP_FILECOUNT_LIMIT = 0
    with open(path, "wb") as out:
        stream = Unseekable(out) if args.descriptors or args.mac else out
        with zipfile.ZipFile(stream, "w", method) as archive:
            folders = [prefix] if prefix else []
            if args.mac:
                for folder in folders:
                    archive.writestr(zipfile.ZipInfo(folder), b"")
            for name, data in tables().items():
                archive.writestr(prefix + name, data)
            if args.mac:
                archive.writestr(prefix + ".DS_Store", b"\0\0\0\1Bud1" + bytes(24))
                for folder in ["__MACOSX/"] + ["__MACOSX/" + folder for folder in folders]:
                    archive.writestr(zipfile.ZipInfo(folder), b"")
                for name in tables():
                    archive.writestr("__MACOSX/" + prefix + "._" + name, APPLE_DOUBLE)
    if args.mac:
        # macOS's archiver writes the compressed size (only it) into the local header of an
        # entry with a data descriptor; the appnote says zero. libzip's ZIP_CHECKCONS refused it.
        with zipfile.ZipFile(path) as archive, open(path, "r+b") as f:
            for entry in archive.infolist():
                f.seek(entry.header_offset + 18)
                f.write(struct.pack("<I", entry.compress_size))
    if args.zip64:
        with open(path, "r+b") as f:
            data = f.read()
            # The classic end record's counts, size and offset say "see the ZIP64 record".
            f.seek(data.rindex(b"PK\x05\x06") + 8)
            f.write(struct.pack("<HHII", 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF))
    if args.damage:
        damage(path, prefix + "stop_times.txt", args.damage)


def damage(path, name, fault):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    encoded = name.encode()
    local = next(at for at in range(len(data) - 30)
                 if data[at:at + 4] == b"PK\x03\x04" and data[at + 30:at + 30 + len(encoded)] == encoded)
    central = next(at for at in range(len(data) - 46)
                   if data[at:at + 4] == b"PK\x01\x02" and data[at + 46:at + 46 + len(encoded)] == encoded)
    start = local + 30 + len(encoded) + struct.unpack_from("<H", data, local + 28)[0]
    if fault == "crc":
        # A digit for another digit in a stored entry: the CSV still parses, the CRC-32 differs.
        at = next(at for at in range(start + 100, len(data)) if data[at] in b"0123456789")
        data[at] = ord("1") if data[at] != ord("1") else ord("2")
    elif fault == "encrypted":
        for at in (local + 6, central + 8):
            data[at] |= 1
    elif fault == "method":
        for at in (local + 8, central + 10):
            struct.pack_into("<H", data, at, 97)
    elif fault == "truncated":
        del data[start + 200:]
    with open(path, "wb") as f:
        f.write(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--method", choices=METHODS, default="deflated")
    parser.add_argument("--folder", default="")
    parser.add_argument("--descriptors", action="store_true")
    parser.add_argument("--zip64", action="store_true")
    parser.add_argument("--mac", action="store_true")
    parser.add_argument("--damage", choices=["crc", "encrypted", "method", "truncated"])
    parser.add_argument("--dir", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.dir:
        os.makedirs(os.path.join(args.out, "feed"), exist_ok=True)
        for name, data in tables().items():
            with open(os.path.join(args.out, "feed", name), "wb") as f:
                f.write(data)
        return
    write_zip(os.path.join(args.out, "feed.zip"), args)


if __name__ == "__main__":
    main()
