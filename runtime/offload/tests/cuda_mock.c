/* A stand-in for libcuda.so, for tests/cuda.rs on machines without an NVIDIA GPU: one sm_90
 * device, "device" memory that is host memory, a module loader that takes cubins (ELF) and
 * PTX and refuses PTX holding "mock-invalid" with CUDA_ERROR_INVALID_PTX (218) and a JIT log,
 * and a context whose next kernel traps after `rkc_mock_trap_next()`: from that launch on,
 * every synchronising call reports an illegal address (700), as the driver's sticky error
 * does, until the primary context is reset. Launches are counted; two kernels are played:
 * `scale` doubles the first float of its array, and `panics` writes 99 there and then fills
 * the panic record (thread 3, site 0) and sets the mapped flag, as a panicking thread does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int launches = 0;
static int trap_armed = 0;
static int trapped = 0;
static int resets = 0;
int rkc_mock_launches(void) { return launches; }
int rkc_mock_resets(void) { return resets; }
void rkc_mock_trap_next(void) { trap_armed = 1; }
/* The next cuLaunchKernel fails with CUDA_ERROR_INVALID_VALUE (1) and runs nothing. */
static int launch_fails = 0;
void rkc_mock_fail_next_launch(void) { launch_fails = 1; }

int cuInit(unsigned flags) { (void)flags; return 0; }
int cuDriverGetVersion(int *v) { *v = 13000; return 0; }
int cuDeviceGetCount(int *c) { *c = 1; return 0; }
int cuDeviceGet(int *d, int ordinal) { *d = ordinal; return 0; }
int cuDeviceGetName(char *name, int len, int d) { (void)d; strncpy(name, "rkc mock NVIDIA GPU", (size_t)len); return 0; }
int cuDeviceGetAttribute(int *v, int attr, int d) {
    (void)d;
    switch (attr) {
    case 1: case 2: case 3: *v = 1024; break;          /* threads per block, block x and y */
    case 4: *v = 64; break;                             /* block z */
    case 5: *v = 2147483647; break;                     /* grid x */
    case 6: case 7: *v = 65535; break;                  /* grid y and z */
    case 8: *v = 49152; break;                          /* shared memory per block */
    case 97: *v = 232448; break;                        /* ... when the kernel asks (opt-in) */
    case 75: *v = 9; break;                             /* compute capability 9.0 */
    case 76: *v = 0; break;
    case 115: *v = 0; break;                            /* no memory pools: cudarc allocates synchronously */
    default: return 1;                                  /* CUDA_ERROR_INVALID_VALUE */
    }
    return 0;
}
int cuDevicePrimaryCtxRetain(void **ctx, int d) { (void)d; *ctx = (void *)1; return 0; }
int cuDevicePrimaryCtxReset_v2(int d) { (void)d; trapped = 0; resets++; return 0; }
/* Each thread's current context, as the driver keeps it; launches need the primary one. */
static __thread void *current = 0;
int cuCtxSetCurrent(void *ctx) { current = ctx; return 0; }
int cuCtxGetCurrent(void **ctx) { *ctx = current; return 0; }
int cuDevicePrimaryCtxRelease_v2(int d) { (void)d; return 0; }
/* A context other than the primary one (cudarc's `CudaContext::new_non_primary`). */
int cuCtxCreate_v4(void **ctx, void *params, unsigned flags, int d) { (void)params; (void)flags; (void)d; *ctx = (void *)2; current = *ctx; return 0; }
int cuCtxDestroy_v2(void *ctx) { (void)ctx; return 0; }
/* Asynchronous copies to the device wait in a queue until something that follows them in
   stream order (a launch, a synchronisation, a synchronous copy) runs, so that a runtime that
   touches a copy's source before then reads back what it wrote after, as on a real GPU. */
struct pending { uint64_t dst; const void *src; size_t n; };
static struct pending queue[4096];
static int queued = 0;
/* How many asynchronous copies wait: a failed launch must not leave any behind. */
int rkc_mock_queued(void) { return queued; }
static void flush(void) {
  for (int i = 0; i < queued; i++) memcpy((void *)(uintptr_t)queue[i].dst, queue[i].src, queue[i].n);
  queued = 0;
}
int cuCtxSynchronize(void) { flush(); return trapped ? 700 : 0; }

int cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
    const char *text = image;
    if (memcmp(text, "\x7f" "ELF", 4) != 0 && strstr(text, ".version") == NULL) return 200; /* CUDA_ERROR_INVALID_IMAGE */
    if (strstr(text, "mock-invalid") != NULL) {
        for (unsigned k = 0; k < n; k++)
            if (options[k] == 5) strcpy((char *)values[k], "ptxas mock: syntax error in line 1");
        return 218;
    }
    *module = (void *)image;
    return 0;
}
/* The function handle is a copy of its name, which the caller frees after the call. */
int cuModuleGetFunction(void **f, void *module, const char *name) { (void)module; *f = strdup(name); return name[0] ? 0 : 500; }

int cuMemAlloc_v2(uint64_t *p, size_t n) { void *m = malloc(n); if (!m) return 2; *p = (uint64_t)(uintptr_t)m; return 0; }
int cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return 0; }
int cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t n) { flush(); memcpy((void *)(uintptr_t)dst, src, n); return 0; }
int cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t n) { flush(); if (trapped) return 700; memcpy(dst, (const void *)(uintptr_t)src, n); return 0; }
int cuMemcpyDtoD_v2(uint64_t dst, uint64_t src, size_t n) { flush(); memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n); return 0; }
int cuMemsetD8_v2(uint64_t dst, unsigned char v, size_t n) { memset((void *)(uintptr_t)dst, v, n); return 0; }
int cuMemHostAlloc(void **p, size_t n, unsigned flags) { (void)flags; *p = calloc(1, n); return *p ? 0 : 2; }
int cuMemHostGetDevicePointer_v2(uint64_t *d, void *h, unsigned flags) { (void)flags; *d = (uint64_t)(uintptr_t)h; return 0; }
int cuMemFreeHost(void *p) { free(p); return 0; }

/* Every function has 1 KiB of static shared memory and may use 48 KiB in all until it asks
   for more dynamic shared memory, as the driver refuses a launch beyond either. */
static int dynamic_allowed = 49152 - 1024;
int cuFuncGetAttribute(int *v, int attr, void *f) {
    (void)f;
    if (attr != 1) return 1;                            /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
    *v = 1024;
    return 0;
}
int cuFuncSetAttribute(void *f, int attr, int v) {
    (void)f;
    if (attr != 8 || v + 1024 > 232448) return 1;       /* MAX_DYNAMIC_SHARED_SIZE_BYTES */
    dynamic_allowed = v;
    return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra) {
    (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)stream; (void)extra;
    if (launch_fails) { launch_fails = 0; return 1; }
    if (current != (void *)1) return 201; /* CUDA_ERROR_INVALID_CONTEXT */
    if ((int)shared > dynamic_allowed) return 1;
    flush();
    launches++;
    const char *name = f;
    if (strcmp(name, "scale") == 0 || strcmp(name, "panics") == 0) {
        float *x = (float *)(uintptr_t)*(uint64_t *)params[0];
        if (name[0] == 's') {
            x[0] *= 2.0f;
        } else {
            uint32_t *record = (uint32_t *)(uintptr_t)*(uint64_t *)params[1];
            x[0] = 99.0f;
            record[0] = 1;
            record[1] = 0;
            record[5] = 3;
            uint64_t flag;
            memcpy(&flag, (char *)record + 48, 8);
            if (flag) *(uint32_t *)(uintptr_t)flag = 1;
        }
    }
    if (strcmp(name, "add_to") == 0) {
        /* y[k] += x[k] for the four elements of each. */
        const float *x = (const float *)(uintptr_t)*(uint64_t *)params[0];
        float *y = (float *)(uintptr_t)*(uint64_t *)params[1];
        for (int k = 0; k < 4; k++) y[k] += x[k];
    }
    if (trap_armed) { trap_armed = 0; trapped = 1; }
    return 0;
}

/* Streams and events: everything happens at the call, so a stream is always finished. */
int cuStreamCreate(void **s, unsigned flags) { (void)flags; *s = malloc(1); return 0; }
int cuStreamDestroy_v2(void *s) { free(s); return 0; }
int cuStreamSynchronize(void *s) { (void)s; flush(); return trapped ? 700 : 0; }
int cuStreamWaitEvent(void *s, void *e, unsigned flags) { (void)s; (void)e; (void)flags; return 0; }
int cuMemcpyHtoDAsync_v2(uint64_t dst, const void *src, size_t n, void *s) {
  (void)s;
  if (queued == 4096) flush();
  queue[queued++] = (struct pending){dst, src, n};
  return 0;
}
int cuMemcpyDtoHAsync_v2(void *dst, uint64_t src, size_t n, void *s) { (void)s; return cuMemcpyDtoH_v2(dst, src, n); }
static int event_count = 0;
int cuEventCreate(void **e, unsigned flags) { (void)flags; int *c = malloc(sizeof(int)); *c = 0; *e = c; return 0; }
int cuEventRecord(void *e, void *s) { (void)s; *(int *)e = ++event_count; return 0; }
int cuEventSynchronize(void *e) { (void)e; flush(); return 0; }
int cuEventDestroy_v2(void *e) { free(e); return 0; }
/* Each recorded event is 1.5 ms after the one before. */
int cuEventElapsedTime_v2(float *ms, void *start, void *end) { *ms = 1.5f * (float)(*(int *)end - *(int *)start); return 0; }

int cuGetErrorName(int code, const char **s) {
    switch (code) {
    case 200: *s = "CUDA_ERROR_INVALID_IMAGE"; return 0;
    case 218: *s = "CUDA_ERROR_INVALID_PTX"; return 0;
    case 700: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
    default: *s = NULL; return 1;
    }
}
int cuGetErrorString(int code, const char **s) { (void)code; *s = "an error of the mock CUDA driver"; return 0; }
