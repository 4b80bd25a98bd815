// The benchmark kernels in CUDA C++ for nvcc: the same algorithms as kernels.rs, with the
// same parameters (each Rust slice is a pointer and a length, as rkc passes it).
// Build: nvcc -O3 -arch=sm_90 -cubin -o kernels.nvcc.cubin kernels.cu
#include <cstddef>
#include <cstdint>

__device__ __forceinline__ float warp_reduce_add(float v) {
    for (int k = 16; k > 0; k /= 2) v += __shfl_xor_sync(0xffffffffu, v, k);
    return v;
}

__device__ __forceinline__ float warp_reduce_max(float v) {
    for (int k = 16; k > 0; k /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, k));
    return v;
}

extern "C" __global__ void vec_add(const float* a, size_t, const float* b, size_t, float* c, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float a, const float* x, size_t, float* y, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    // Rust does not contract a * x + y into a fused multiply-add, and nvcc does by default:
    // the explicitly rounded forms keep the two versions the same arithmetic.
    if (i < n) y[i] = __fadd_rn(__fmul_rn(a, x[i]), y[i]);
}

extern "C" __global__ void vec_add4(const float4* a, size_t, const float4* b, size_t, float4* c, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" __global__ void saxpy4(float a, const float4* x, size_t, float4* y, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 u = x[i], v = y[i];
        y[i] = make_float4(__fadd_rn(__fmul_rn(a, u.x), v.x), __fadd_rn(__fmul_rn(a, u.y), v.y),
                           __fadd_rn(__fmul_rn(a, u.z), v.z), __fadd_rn(__fmul_rn(a, u.w), v.w));
    }
}

extern "C" __global__ void canonical(double* x, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = (double)i;
}

extern "C" __global__ void reduce(const float* x, size_t n, float* partial, size_t) {
    __shared__ float sums[32];
    size_t t = threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    float s = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + t; i < n; i += stride) s += x[i];
    s = warp_reduce_add(s);
    if ((t & 31) == 0) sums[t / 32] = s;
    __syncthreads();
    if (t < 32) {
        size_t warps = blockDim.x / 32;
        float v = t < warps ? sums[t] : 0.0f;
        float total = warp_reduce_add(v);
        if (t == 0) partial[blockIdx.x] = total;
    }
}

extern "C" __global__ void transpose(size_t width, size_t height, const float* in, size_t, float* out, size_t) {
    __shared__ float tile[32 * 33];
    size_t tx = threadIdx.x, ty = threadIdx.y;
    size_t bx = (size_t)blockIdx.x * 32, by = (size_t)blockIdx.y * 32;
    for (size_t j = 0; j < 32; j += 8) {
        size_t x = bx + tx, y = by + ty + j;
        if (x < width && y < height) tile[(ty + j) * 33 + tx] = in[y * width + x];
    }
    __syncthreads();
    for (size_t j = 0; j < 32; j += 8) {
        size_t x = by + tx, y = bx + ty + j;
        if (x < height && y < width) out[y * height + x] = tile[tx * 33 + ty + j];
    }
}

extern "C" __global__ void sgemm(size_t n, const float* a, size_t, const float* b, size_t, float* c, size_t) {
    __shared__ float ta[256];
    __shared__ float tb[256];
    size_t tx = threadIdx.x, ty = threadIdx.y;
    size_t row = (size_t)blockIdx.y * 16 + ty, col = (size_t)blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (size_t k0 = 0; k0 < n; k0 += 16) {
        ta[ty * 16 + tx] = a[row * n + k0 + tx];
        tb[ty * 16 + tx] = b[(k0 + ty) * n + col];
        __syncthreads();
        for (size_t k = 0; k < 16; k++) acc = fmaf(ta[ty * 16 + k], tb[k * 16 + tx], acc);
        __syncthreads();
    }
    c[row * n + col] = acc;
}

extern "C" __global__ void sgemm_tiled(size_t n, const float4* a, size_t, const float4* b, size_t, float4* c, size_t) {
    const size_t TILE = 128, STEP = 8, QUADS = TILE / 4;
    __shared__ float4 ta[STEP * QUADS];
    __shared__ float4 tb[STEP * QUADS];
    const size_t t = threadIdx.x, tr = t / 16, tc = t % 16;
    const size_t brow = (size_t)blockIdx.y * TILE, bcol = (size_t)blockIdx.x * TILE;
    const size_t row4 = n / 4;
    float acc[8][8] = {};
    for (size_t k0 = 0; k0 < n; k0 += STEP) {
        const size_t m = t / 2, kq = t % 2;
        const float4 qa = a[(brow + m) * row4 + k0 / 4 + kq];
        float* tas = reinterpret_cast<float*>(ta);
        tas[(kq * 4 + 0) * TILE + m] = qa.x;
        tas[(kq * 4 + 1) * TILE + m] = qa.y;
        tas[(kq * 4 + 2) * TILE + m] = qa.z;
        tas[(kq * 4 + 3) * TILE + m] = qa.w;
        const size_t kb = t / QUADS, jq = t % QUADS;
        tb[kb * QUADS + jq] = b[(k0 + kb) * row4 + bcol / 4 + jq];
        __syncthreads();
#pragma unroll
        for (size_t k = 0; k < STEP; k++) {
            const float4 a0 = ta[k * QUADS + tr], a1 = ta[k * QUADS + 16 + tr];
            const float4 b0 = tb[k * QUADS + tc], b1 = tb[k * QUADS + 16 + tc];
            const float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const size_t r = brow + (i / 4) * 64 + tr * 4 + i % 4;
        const size_t at = r * row4 + bcol / 4 + tc;
        c[at] = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        c[at + 16] = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

extern "C" __global__ void stencil(size_t width, size_t height, const float* in, size_t, float* out, size_t) {
    size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x + 1 < width && y + 1 < height) {
        size_t i = y * width + x;
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
    }
}

extern "C" __global__ void histogram(const uint32_t* data, size_t n, uint32_t* bins, size_t) {
    __shared__ uint32_t local[256];
    size_t t = threadIdx.x;
    local[t] = 0;
    __syncthreads();
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + t; i < n; i += stride) atomicAdd(&local[data[i] & 255], 1u);
    __syncthreads();
    atomicAdd(&bins[t], local[t]);
}

extern "C" __global__ void softmax(size_t cols, const float* x, size_t, float* y, size_t) {
    __shared__ float scratch[32];
    size_t t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * cols;
    size_t warps = blockDim.x / 32;
    float m = -INFINITY;
    for (size_t j = t; j < cols; j += 256) m = fmaxf(m, x[base + j]);
    m = warp_reduce_max(m);
    if ((t & 31) == 0) scratch[t / 32] = m;
    __syncthreads();
    float row_max = -INFINITY;
    for (size_t w = 0; w < warps; w++) row_max = fmaxf(row_max, scratch[w]);
    __syncthreads();
    float s = 0.0f;
    for (size_t j = t; j < cols; j += 256) s += expf(x[base + j] - row_max);
    s = warp_reduce_add(s);
    if ((t & 31) == 0) scratch[t / 32] = s;
    __syncthreads();
    float total = 0.0f;
    for (size_t w = 0; w < warps; w++) total += scratch[w];
    for (size_t j = t; j < cols; j += 256) y[base + j] = expf(x[base + j] - row_max) / total;
}

extern "C" __global__ void nbody(size_t n, const float* pos, size_t, float* acc, size_t) {
    __shared__ float tile[1024];
    size_t t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + t;
    float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (size_t base = 0; base < n; base += 256) {
        size_t k = base + t;
        tile[4 * t] = pos[4 * k];
        tile[4 * t + 1] = pos[4 * k + 1];
        tile[4 * t + 2] = pos[4 * k + 2];
        tile[4 * t + 3] = pos[4 * k + 3];
        __syncthreads();
        for (size_t j = 0; j < 256; j++) {
            float dx = tile[4 * j] - px, dy = tile[4 * j + 1] - py, dz = tile[4 * j + 2] - pz;
            float d2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, 0.01f)));
            float inv = 1.0f / sqrtf(d2);
            float s = tile[4 * j + 3] * inv * inv * inv;
            ax = fmaf(dx, s, ax);
            ay = fmaf(dy, s, ay);
            az = fmaf(dz, s, az);
        }
        __syncthreads();
    }
    acc[4 * i] = ax;
    acc[4 * i + 1] = ay;
    acc[4 * i + 2] = az;
    acc[4 * i + 3] = 0.0f;
}

// hgemm: the tiling of kernels.rs's hgemm (128×128 block tiles, 32-wide k steps, four warps
// each computing a 64×64 part as 4×8 m16n8k16 tensor-core tiles, the tiles of a and b copied
// into a ring of four stages in dynamic shared memory by cp.async three steps ahead, one
// barrier per step, rows padded by eight elements, fragments loaded by ldmatrix), written
// with inline PTX as CUDA code without CUTLASS writes it. f16 travels as its 16 bits. The
// launch gives HGEMM_STAGES * (HGEMM_TILE_A + HGEMM_TILE_B) * 2 = 75,776 bytes of dynamic
// shared memory.
#define HGEMM_STAGES 4
#define HGEMM_BLOCK_M 128
#define HGEMM_BLOCK_N 128
#define HGEMM_WARPS_N 2
#define HGEMM_THREADS (32 * (HGEMM_BLOCK_M / 64) * HGEMM_WARPS_N)
#define HGEMM_ROW_A 40
#define HGEMM_ROW_B (HGEMM_BLOCK_N + 8)
#define HGEMM_NI 8
#define HGEMM_TILE_A (HGEMM_BLOCK_M * HGEMM_ROW_A)
#define HGEMM_TILE_B (32 * HGEMM_ROW_B)
__device__ __forceinline__ unsigned shared_address(const void* p) {
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

// Starts the copies of step s's tiles into their stage of the rings (an empty group past the
// last step, so that every step waits for the same count).
__device__ __forceinline__ void hgemm_stage(const unsigned short* a, const unsigned short* b, size_t n, size_t k,
                                            size_t row, size_t col, size_t s, size_t steps, unsigned short* sa,
                                            unsigned short* sb) {
    if (s < steps) {
        const size_t k0 = s * 32;
        unsigned short* ta = sa + s % HGEMM_STAGES * HGEMM_TILE_A;
        unsigned short* tb = sb + s % HGEMM_STAGES * HGEMM_TILE_B;
#pragma unroll
        for (size_t j = 0; j < HGEMM_BLOCK_M * 32 / 8 / HGEMM_THREADS; j++) {
            const size_t chunk = threadIdx.x + j * HGEMM_THREADS;
            const size_t ar = chunk / 4, ac = chunk % 4 * 8;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(ta + ar * HGEMM_ROW_A + ac)),
                         "l"(a + (row + ar) * k + k0 + ac));
        }
#pragma unroll
        for (size_t j = 0; j < 32 * HGEMM_BLOCK_N / 8 / HGEMM_THREADS; j++) {
            const size_t chunk = threadIdx.x + j * HGEMM_THREADS;
            const size_t br = chunk / (HGEMM_BLOCK_N / 8), bc = chunk % (HGEMM_BLOCK_N / 8) * 8;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(tb + br * HGEMM_ROW_B + bc)),
                         "l"(b + (k0 + br) * n + col + bc));
        }
    }
    asm volatile("cp.async.commit_group;");
}

extern "C" __global__ void hgemm(size_t n, size_t k, const unsigned short* a, size_t, const unsigned short* b, size_t,
                                 float* c, size_t) {
    extern __shared__ __align__(16) unsigned short hgemm_shared[];
    unsigned short* sa = hgemm_shared;
    unsigned short* sb = hgemm_shared + HGEMM_STAGES * HGEMM_TILE_A;
    const size_t t = threadIdx.x, warp = t / 32, lane = t % 32;
    const size_t g = lane / 4, tg = lane % 4;
    const size_t wm = warp / HGEMM_WARPS_N * 64, wn = warp % HGEMM_WARPS_N * 64;
    const size_t row = (size_t)blockIdx.y * HGEMM_BLOCK_M, col = (size_t)blockIdx.x * HGEMM_BLOCK_N;
    float acc[4 * HGEMM_NI][4] = {};
    const size_t steps = k / 32;
#pragma unroll
    for (size_t s = 0; s < HGEMM_STAGES - 1; s++) {
        hgemm_stage(a, b, n, k, row, col, s, steps, sa, sb);
    }
    for (size_t s = 0; s < steps; s++) {
        asm volatile("cp.async.wait_group %0;" ::"n"(HGEMM_STAGES - 2));
        __syncthreads();
        hgemm_stage(a, b, n, k, row, col, s + HGEMM_STAGES - 1, steps, sa, sb);
        const size_t stage = s % HGEMM_STAGES;
#pragma unroll
        for (int kk = 0; kk < 2; kk++) {
            const unsigned short* ta = sa + stage * HGEMM_TILE_A + kk * 16;
            const unsigned short* tb = sb + stage * HGEMM_TILE_B + kk * 16 * HGEMM_ROW_B;
            // B's fragments: rows k = lane % 16 of the warp's 8-column slices, transposed.
            unsigned bf[HGEMM_NI][2];
#pragma unroll
            for (int ni = 0; ni < HGEMM_NI; ni++) {
                asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                             : "=r"(bf[ni][0]), "=r"(bf[ni][1])
                             : "r"(shared_address(tb + (lane % 16) * HGEMM_ROW_B + wn + ni * 8)));
            }
#pragma unroll
            for (int mi = 0; mi < 4; mi++) {
                // A's fragment: rows lane % 16, the right half for lanes 16 on.
                const unsigned short* am = ta + (wm + mi * 16 + lane % 16) * HGEMM_ROW_A + lane / 16 * 8;
                unsigned a0, a1, a2, a3;
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                             : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                             : "r"(shared_address(am)));
#pragma unroll
                for (int ni = 0; ni < HGEMM_NI; ni++) {
                    const unsigned b0 = bf[ni][0], b1 = bf[ni][1];
                    float* d = acc[mi * HGEMM_NI + ni];
                    asm volatile(
                        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                        "{%0,%1,%2,%3};"
                        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
                }
            }
        }
    }
#pragma unroll
    for (int mi = 0; mi < 4; mi++) {
#pragma unroll
        for (int ni = 0; ni < HGEMM_NI; ni++) {
            float* out = c + (row + wm + mi * 16 + g) * n + col + wn + ni * 8 + 2 * tg;
            const float* d = acc[mi * HGEMM_NI + ni];
            out[0] = d[0];
            out[1] = d[1];
            out[8 * n] = d[2];
            out[8 * n + 1] = d[3];
        }
    }
}

// hgemm_wgmma: the tiling of kernels.rs's hgemm_wgmma (128×128 block tiles, 64-wide k steps,
// two warpgroups each multiplying its 64 rows by the 128 columns with four wgmma.mma_async of
// 64×128×16 a step, the tiles copied by cp.async four steps ahead into a ring of six stages, in
// the layout with 128-byte swizzling: rows of 128 bytes whose 16-byte chunks are permuted by
// the row's index), written with inline PTX. Needs sm_90a; the launch gives
// WGMMA_SHARED_BYTES = 196,608 bytes of dynamic shared memory and WGMMA_THREADS threads.
#define WGMMA_BLOCK_M 128
#define WGMMA_BLOCK_N 128
#define WGMMA_STEP 64
#define WGMMA_STAGES 6
#define WGMMA_THREADS (128 * WGMMA_BLOCK_M / 64)
#define WGMMA_TILE_A (WGMMA_BLOCK_M * WGMMA_STEP)
#define WGMMA_TILE_B (WGMMA_STEP * WGMMA_BLOCK_N)
#define WGMMA_B_BLOCK (WGMMA_STEP * 64)

// One warpgroup multiply of 64×128×16 (`wgmma.mma_async`, sm_90a): the 64 accumulators of the
// thread, and the two tiles' matrix descriptors.
__device__ __forceinline__ void wgmma_m64n128k16(float* d, unsigned long long da, unsigned long long db) {
    asm volatile(
        "{ .reg .pred p; setp.ne.b32 p, %66, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 1; }"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db), "r"(1));
}

// A swizzled tile's matrix descriptor: its shared address, the leading and stride byte
// offsets, each over 16, and layout type 1 (128-byte swizzling) in bits 62-63.
__device__ __forceinline__ unsigned long long wgmma_descriptor(const void* tile, unsigned leading, unsigned stride) {
    return (unsigned long long)((shared_address(tile) & 0x3FFFF) >> 4) | (unsigned long long)(leading >> 4) << 16 |
           (unsigned long long)(stride >> 4) << 32 | 1ull << 62;
}

__device__ __forceinline__ void wgmma_stage(const unsigned short* a, const unsigned short* b, size_t n, size_t k,
                                            size_t row, size_t col, size_t s, size_t steps, unsigned short* sa,
                                            unsigned short* sb) {
    if (s < steps) {
        const size_t k0 = s * WGMMA_STEP, t = threadIdx.x;
        unsigned short* ta = sa + s % WGMMA_STAGES * WGMMA_TILE_A;
        unsigned short* tb = sb + s % WGMMA_STAGES * WGMMA_TILE_B;
#pragma unroll
        for (size_t j = 0; j < WGMMA_TILE_A / 8 / WGMMA_THREADS; j++) {
            const size_t p = t + j * WGMMA_THREADS;
            const size_t r = p / 8, chunk = p % 8;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                             shared_address(ta + r * 64 + (chunk ^ r % 8) * 8)),
                         "l"(a + (row + r) * k + k0 + chunk * 8));
        }
#pragma unroll
        for (size_t j = 0; j < WGMMA_TILE_B / 8 / WGMMA_THREADS; j++) {
            const size_t p = t + j * WGMMA_THREADS;
            const size_t chunk = p % 8, block = p / 8 % (WGMMA_BLOCK_N / 64), r = p / (WGMMA_BLOCK_N / 8);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                             shared_address(tb + block * WGMMA_B_BLOCK + r * 64 + (chunk ^ r % 8) * 8)),
                         "l"(b + (k0 + r) * n + col + block * 64 + chunk * 8));
        }
    }
    asm volatile("cp.async.commit_group;");
}

extern "C" __global__ void __launch_bounds__(WGMMA_THREADS) hgemm_wgmma(size_t n, size_t k, const unsigned short* a,
                                                                        size_t, const unsigned short* b, size_t,
                                                                        float* c, size_t) {
    extern __shared__ __align__(1024) unsigned short wgmma_shared[];
    unsigned short* sa = wgmma_shared;
    unsigned short* sb = wgmma_shared + WGMMA_STAGES * WGMMA_TILE_A;
    const size_t t = threadIdx.x, group = t / 128;
    const size_t row = (size_t)blockIdx.y * WGMMA_BLOCK_M, col = (size_t)blockIdx.x * WGMMA_BLOCK_N;
    float acc[WGMMA_BLOCK_N / 2];
#pragma unroll
    for (int i = 0; i < WGMMA_BLOCK_N / 2; i++) acc[i] = 0.0f;
    const size_t steps = k / WGMMA_STEP;
#pragma unroll
    for (size_t s = 0; s < WGMMA_STAGES - 2; s++) wgmma_stage(a, b, n, k, row, col, s, steps, sa, sb);
    for (size_t s = 0; s < steps; s++) {
        asm volatile("cp.async.wait_group %0;" ::"n"(WGMMA_STAGES - 3));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        wgmma_stage(a, b, n, k, row, col, s + WGMMA_STAGES - 2, steps, sa, sb);
        const unsigned short* ta = sa + s % WGMMA_STAGES * WGMMA_TILE_A + group * 64 * WGMMA_STEP;
        const unsigned short* tb = sb + s % WGMMA_STAGES * WGMMA_TILE_B;
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < WGMMA_STEP / 16; kk++) {
            // a: 32 bytes along its rows, leading offset unused, atoms 1024 bytes apart; b: 16
            // rows down, leading offset between 64-column blocks, atoms 1024 bytes apart.
            wgmma_m64n128k16(acc, wgmma_descriptor(ta + kk * 16, 16, 1024),
                             wgmma_descriptor(tb + kk * 16 * 64, WGMMA_B_BLOCK * 2, 1024));
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    const size_t warp = t % 128 / 32, lane = t % 32;
    const size_t r0 = row + group * 64 + warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < WGMMA_BLOCK_N / 8; j++) {
        float* out = c + r0 * n + col + j * 8 + lane % 4 * 2;
        out[0] = acc[4 * j];
        out[1] = acc[4 * j + 1];
        out[8 * n] = acc[4 * j + 2];
        out[8 * n + 1] = acc[4 * j + 3];
    }
}
