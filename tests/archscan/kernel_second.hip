// A second trivial HIP kernel (a second offload bundle in one library): the archscan tests only need its code objects, one per offload arch.
#include <hip/hip_runtime.h>

__global__ void archscanFillSecond(float* out, float value)
{
    out[threadIdx.x] = value;
}

extern "C" void archscanLaunchSecond(float* out)
{
    archscanFillSecond<<<1, 1>>>(out, 1.0f);
}
