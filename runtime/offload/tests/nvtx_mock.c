/* A stand-in for a profiler's NVTX injection library (what Nsight sets NVTX_INJECTION64_PATH
   to): it asks the program for the CORE module's function table through the export table,
   installs nvtxRangePushA and nvtxRangePop, and logs the ranges for the test to read. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void *fnptr;
typedef int (*get_table_fn)(int module, fnptr ***table, unsigned *size);
struct callbacks { size_t struct_size; get_table_fn get_module_function_table; };

static char log_text[4096];
static int depth = 0;

static int push(const char *name) {
    size_t n = strlen(log_text);
    if (n + strlen(name) + 8 < sizeof log_text) {
        strcat(log_text, "push ");
        strcat(log_text, name);
        strcat(log_text, "\n");
    }
    return depth++;
}

static int pop(void) {
    if (strlen(log_text) + 8 < sizeof log_text) strcat(log_text, "pop\n");
    return --depth;
}

const char *rkc_mock_nvtx_log(void) { return log_text; }

int InitializeInjectionNvtx2(const void *(*get_export_table)(uint32_t)) {
    const struct callbacks *cb = get_export_table(1);
    if (!cb || cb->struct_size < sizeof(struct callbacks)) return 0;
    fnptr **table = 0;
    unsigned size = 0;
    if (!cb->get_module_function_table(1, &table, &size) || size < 12) return 0;
    /* Every module NVTX defines has a table (a real injection library fills them all). */
    for (int m = 2; m <= 6; m++)
        if (!cb->get_module_function_table(m, &table, &size) || size == 0) return 0;
    if (cb->get_module_function_table(7, &table, &size)) return 0;
    cb->get_module_function_table(1, &table, &size);
    *table[9] = (fnptr)push;
    *table[11] = (fnptr)pop;
    return 1;
}
