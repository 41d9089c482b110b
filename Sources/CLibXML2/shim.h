#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
// Debian's libxml2 is built with ICU, so its encoding header includes the system's ICU headers,
// whose types clash with the copy of ICU that Swift's Foundation brings (one program may not see
// two definitions of `UErrorCode`). Nothing here uses libxml2's ICU converters, and no ICU type
// appears in what Swift reads (only pointers to the structures holding them), so the headers are
// read without them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// The parser options a lift-status body is read with, as one value (Swift imports the enum's
// cases but not their OR): no network, no error text on stderr (the caller reports the error),
// CDATA as text. Never XML_PARSE_NOENT (entity substitution), XML_PARSE_DTDLOAD, XML_PARSE_DTDATTR
// or XML_PARSE_HUGE: a body's DTD is refused before parsing, and these keep libxml2's own limits.
static inline int clibxml2_safe_options(void) {
    return XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
}

#endif
