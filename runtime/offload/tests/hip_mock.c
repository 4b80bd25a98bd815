/* A stand-in for libamdhip64.so, for tests/hip.rs on machines without an AMD GPU: one device,
 * "device" memory that is host memory, and a module loader that accepts only gfx942 code
 * objects (ELF e_flags machine 0x4c), as HIP rejects code objects for other architectures
 * with hipErrorNoBinaryForGpu (209). Launches are counted, not run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int launches = 0;
int rkc_mock_launches(void) { return launches; }

int hipInit(unsigned flags) { (void)flags; return 0; }
int hipDriverGetVersion(int *v) { *v = 60241234; return 0; }
int hipGetDeviceCount(int *c) { *c = 1; return 0; }
int hipDeviceGet(int *d, int ordinal) { *d = ordinal; return 0; }
int hipDeviceGetName(char *name, int len, int d) { (void)d; strncpy(name, "rkc mock AMD GPU", (size_t)len); return 0; }
int hipDeviceGetAttribute(int *v, int attr, int d) { (void)attr; (void)d; *v = 0; return 0; }
int hipDevicePrimaryCtxRetain(void **ctx, int d) { (void)d; *ctx = (void *)1; return 0; }
int hipCtxSetCurrent(void *ctx) { (void)ctx; return 0; }
int hipDevicePrimaryCtxReset(int d) { (void)d; return 0; }
int hipDeviceSynchronize(void) { return 0; }

int hipModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
    (void)n; (void)options; (void)values;
    const unsigned char *elf = image;
    if (memcmp(elf, "\x7f" "ELF", 4) != 0) return 200; /* hipErrorInvalidImage */
    uint32_t flags;
    memcpy(&flags, elf + 48, 4);
    if ((flags & 0xff) != 0x4c) return 209; /* hipErrorNoBinaryForGpu */
    *module = (void *)image;
    return 0;
}
int hipModuleGetFunction(void **f, void *module, const char *name) { (void)module; *f = (void *)name; return name[0] ? 0 : 500; }

int hipMalloc(uint64_t *p, size_t n) { void *m = malloc(n); if (!m) return 2; *p = (uint64_t)(uintptr_t)m; return 0; }
int hipFree(uint64_t p) { free((void *)(uintptr_t)p); return 0; }
int hipMemcpyHtoD(uint64_t dst, const void *src, size_t n) { memcpy((void *)(uintptr_t)dst, src, n); return 0; }
int hipMemcpyDtoH(void *dst, uint64_t src, size_t n) { memcpy(dst, (const void *)(uintptr_t)src, n); return 0; }
int hipMemcpyDtoD(uint64_t dst, uint64_t src, size_t n) { memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n); return 0; }
int hipMemsetD8(uint64_t dst, unsigned char v, size_t n) { memset((void *)(uintptr_t)dst, v, n); return 0; }
int hipMemcpyDtoHAsync(void *dst, uint64_t src, size_t n, void *stream) { (void)stream; return hipMemcpyDtoH(dst, src, n); }
int hipHostGetDevicePointer(uint64_t *d, void *h, unsigned flags) { (void)flags; *d = (uint64_t)(uintptr_t)h; return 0; }
int hipHostMalloc(void **p, size_t n, unsigned flags) { (void)flags; *p = calloc(1, n); return *p ? 0 : 2; }

int hipModuleLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void *stream, void **params, void **extra) {
    (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)shared; (void)stream; (void)params; (void)extra;
    launches++;
    return 0;
}

const char *hipGetErrorName(int code) { return code == 209 ? "hipErrorNoBinaryForGpu" : "hipErrorMock"; }
const char *hipGetErrorString(int code) { (void)code; return "an error of the mock HIP library"; }
