// A trivial HIP kernel: the archscan tests only need its code objects, one per offload arch.
#include <hip/hip_runtime.h>

__global__ void archscanFill(float* out, float value)
{
    out[threadIdx.x] = value;
}

extern "C" void archscanLaunch(float* out)
{
    archscanFill<<<1, 1>>>(out, 1.0f);
}
