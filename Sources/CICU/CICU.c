#include "CICU.h"

// ICU renames each function after its version with macros (ucol_open is ucol_open_72), which
// Swift does not import; called from C, by the names the headers give.
#include <unicode/ucol.h>

CICUCollator *cicu_open(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(locale, &status);
    if (U_FAILURE(status)) {
        return NULL;
    }
    return (CICUCollator *)collator;
}

void cicu_close(CICUCollator *collator) {
    ucol_close((UCollator *)collator);
}

int cicu_compare_utf8(const CICUCollator *collator, const char *a, int32_t a_length, const char *b, int32_t b_length) {
    UErrorCode status = U_ZERO_ERROR;
    return (int)ucol_strcollUTF8((const UCollator *)collator, a, a_length, b, b_length, &status);
}
