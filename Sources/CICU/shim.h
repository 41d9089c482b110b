#ifndef CICU_SHIM_H
#define CICU_SHIM_H
// ICU's collation (libicu): the stations' order by name in the feed's language. ICU's headers
// rename every function after the library's version (ucol_open is a macro for ucol_open_72),
// which Swift does not import; these wrappers call them by the names the headers give, so the
// daemon builds against whichever ICU Debian ships.
#include <unicode/ucol.h>

static inline UCollator *cicu_open(const char *locale, UErrorCode *status) { return ucol_open(locale, status); }

static inline void cicu_close(UCollator *collator) { ucol_close(collator); }

static inline UCollationResult cicu_compare_utf8(const UCollator *collator, const char *a, int32_t aLength,
                                                 const char *b, int32_t bLength, UErrorCode *status) {
    return ucol_strcollUTF8(collator, a, aLength, b, bLength, status);
}

static inline int cicu_failed(UErrorCode status) { return U_FAILURE(status); }
#endif
