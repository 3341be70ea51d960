//===- tma_example.cpp - A Hopper TMA kernel built with ptxlint's builder -===//
//
// Builds a kernel for sm_90a whose async copies all come from the typed
// builder (include/ptxlint/Builder.h):
//   1. a 2D tile load, cp.async.bulk.tensor, completing on an mbarrier;
//   2. every thread computes 2*x+1 on the tile in shared memory;
//   3. a bulk tensor store of the tile back to global memory (bulk_group);
//   4. a cp.reduce.async.bulk .add.f32 of the tile into an accumulator;
//   5. cp.async.bulk.commit_group / wait_group 0.
// The module is written for PTX 8.0 with the load into .shared::cta, which
// PTX 8.0 cannot express: lowerModule() rewrites it (.shared::cluster),
// ptxlint::lint validates the module, ptxas (lib/Ptxas) assembles it to a
// cubin, and the CUDA driver API (loaded with dlopen, so the program builds
// and starts without a driver) runs it: cuModuleLoadData,
// cuTensorMapEncodeTiled, cuLaunchKernel. The host checks every element.
//
// Exit status: 0 pass, 1 failure, 77 skipped (no driver or no sm_90 GPU).
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Lower.h"
#include "ptxlint/Ptxas.h"
#include "ptxlint/Render.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace ptxlint;
using namespace ptxlint::build;

namespace {

constexpr int Width = 256, Height = 128; // the global tensor, f32
constexpr int Box = 32;                  // the tile: Box x Box
constexpr int Threads = 128;
constexpr int TileBytes = Box * Box * 4;

// --- the kernel ------------------------------------------------------------------

struct Kernel {
  std::string Ptx;
  std::vector<Inst> Copies; ///< the builder's instructions, for validation
};

Kernel buildKernel() {
  Kernel K;
  // The async copies, typed.
  CpAsyncBulkTensor Load;
  Load.Dir = TensorDir::GlobalToSharedCta; // PTX 8.6+; lowered below
  Load.Dim = 2;
  Load.Mode = LoadMode::Tile;
  Load.Shared = addr("%r1");
  Load.Tensor = TensorRef{reg("%rd1"), {reg("%r6"), reg("%r7")}};
  Load.Mbar = addr("%r2");
  Inst LoadI(Load);
  LoadI.Guard = reg("%p1");

  CpAsyncBulkTensor Store;
  Store.Dir = TensorDir::SharedCtaToGlobal;
  Store.Dim = 2;
  Store.Shared = addr("%r1");
  Store.Tensor = TensorRef{reg("%rd2"), {reg("%r6"), reg("%r7")}};
  Inst StoreI(Store);
  StoreI.Guard = reg("%p1");

  CpReduceAsyncBulk Red;
  Red.Dir = ReduceDir::SharedCtaToGlobal;
  Red.Op = RedOp::Add;
  Red.Type = RedType::F32;
  Red.Dst = addr("%rd4");
  Red.Src = addr("%r1");
  Red.Size = imm(TileBytes);
  Inst RedI(Red);
  RedI.Guard = reg("%p1");

  Inst Commit(CpAsyncBulkCommitGroup{});
  Commit.Guard = reg("%p1");
  Inst Wait(CpAsyncBulkWaitGroup{false, 0});
  Wait.Guard = reg("%p1");
  K.Copies = {LoadI, StoreI, RedI, Commit, Wait};

  std::string S;
  auto L = [&](const std::string &Line) { S += "\t" + Line + "\n"; };
  S += ".version 8.0\n.target sm_90a\n.address_size 64\n\n";
  S += ".visible .entry tma_kernel(\n"
       "\t.param .align 64 .b8 tma_kernel_in[128],\n"
       "\t.param .align 64 .b8 tma_kernel_out[128],\n"
       "\t.param .u64 tma_kernel_acc\n)\n.maxntid 128, 1, 1\n{\n";
  L(".reg .pred %p<3>;");
  L(".reg .b32 %r<16>;");
  L(".reg .b64 %rd<8>;");
  L(".reg .f32 %f<4>;");
  L(".shared .align 128 .b8 tile[" + std::to_string(TileBytes) + "];");
  L(".shared .align 8 .b64 bar;");
  L("mov.b64 %rd5, tma_kernel_in;");
  L("cvta.param.u64 %rd1, %rd5;");
  L("mov.b64 %rd6, tma_kernel_out;");
  L("cvta.param.u64 %rd2, %rd6;");
  L("ld.param.u64 %rd3, [tma_kernel_acc];");
  L("mov.u32 %r1, tile;");
  L("mov.u32 %r2, bar;");
  L("mov.u32 %r3, %tid.x;");
  L("mov.u32 %r4, %ctaid.x;");
  L("mov.u32 %r5, %ctaid.y;");
  L("shl.b32 %r6, %r4, 5;"); // x = ctaid.x * Box
  L("shl.b32 %r7, %r5, 5;"); // y = ctaid.y * Box
  L("mov.u32 %r8, %nctaid.x;");
  L("mad.lo.u32 %r9, %r5, %r8, %r4;"); // tile index
  L("mul.wide.u32 %rd7, %r9, " + std::to_string(TileBytes) + ";");
  L("add.s64 %rd4, %rd3, %rd7;"); // this tile's accumulator
  L("setp.eq.u32 %p1, %r3, 0;");
  L("@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;");
  L("@%p1 fence.mbarrier_init.release.cluster;");
  L("bar.sync 0;");
  L("@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], " +
    std::to_string(TileBytes) + ";");
  L(print(LoadI));
  S += "$L_wait:\n";
  L("mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;");
  L("@!%p2 bra $L_wait;");
  L("shl.b32 %r10, %r3, 2;");
  L("add.u32 %r11, %r1, %r10;");
  for (int E = 0; E < Box * Box / Threads; ++E) {
    std::string A = "[%r11+" + std::to_string(E * Threads * 4) + "]";
    L("ld.shared.f32 %f1, " + A + ";");
    L("fma.rn.f32 %f2, %f1, 0f40000000, 0f3F800000;"); // 2x + 1
    L("st.shared.f32 " + A + ", %f2;");
  }
  L("fence.proxy.async.shared::cta;"); // generic writes -> async proxy
  L("bar.sync 0;");
  L(print(StoreI));
  L(print(RedI));
  L(print(Commit));
  L(print(Wait));
  L("ret;");
  S += "}\n";
  K.Ptx = S;
  return K;
}

// --- the CUDA driver API, loaded at run time ------------------------------------------

struct Driver {
  void *H = nullptr;
#define PTXLINT_CU(Fn) decltype(&::Fn) Fn = nullptr;
  PTXLINT_CU(cuInit)
  PTXLINT_CU(cuGetErrorString)
  PTXLINT_CU(cuDeviceGet)
  PTXLINT_CU(cuDeviceGetCount)
  PTXLINT_CU(cuDeviceGetName)
  PTXLINT_CU(cuDeviceGetAttribute)
  PTXLINT_CU(cuDriverGetVersion)
  PTXLINT_CU(cuDevicePrimaryCtxRetain)
  PTXLINT_CU(cuCtxSetCurrent)
  PTXLINT_CU(cuModuleLoadData)
  PTXLINT_CU(cuModuleGetFunction)
  PTXLINT_CU(cuMemAlloc_v2)
  PTXLINT_CU(cuMemFree_v2)
  PTXLINT_CU(cuMemcpyHtoD_v2)
  PTXLINT_CU(cuMemcpyDtoH_v2)
  PTXLINT_CU(cuTensorMapEncodeTiled)
  PTXLINT_CU(cuLaunchKernel)
  PTXLINT_CU(cuCtxSynchronize)
#undef PTXLINT_CU

  bool load(std::string &Why) {
    H = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!H) {
      Why = "libcuda.so.1 not found (no NVIDIA driver)";
      return false;
    }
    bool Ok = true;
#define PTXLINT_SYM(Fn)                                                        \
  Fn = reinterpret_cast<decltype(Fn)>(dlsym(H, #Fn));                          \
  Ok &= Fn != nullptr;
    PTXLINT_SYM(cuInit)
    PTXLINT_SYM(cuGetErrorString)
    PTXLINT_SYM(cuDeviceGet)
    PTXLINT_SYM(cuDeviceGetCount)
    PTXLINT_SYM(cuDeviceGetName)
    PTXLINT_SYM(cuDeviceGetAttribute)
    PTXLINT_SYM(cuDriverGetVersion)
    PTXLINT_SYM(cuDevicePrimaryCtxRetain)
    PTXLINT_SYM(cuCtxSetCurrent)
    PTXLINT_SYM(cuModuleLoadData)
    PTXLINT_SYM(cuModuleGetFunction)
    PTXLINT_SYM(cuMemAlloc_v2)
    PTXLINT_SYM(cuMemFree_v2)
    PTXLINT_SYM(cuMemcpyHtoD_v2)
    PTXLINT_SYM(cuMemcpyDtoH_v2)
    PTXLINT_SYM(cuTensorMapEncodeTiled)
    PTXLINT_SYM(cuLaunchKernel)
    PTXLINT_SYM(cuCtxSynchronize)
#undef PTXLINT_SYM
    if (!Ok)
      Why = "libcuda.so.1 lacks a needed entry point (driver too old?)";
    return Ok;
  }
};

Driver Cu;

bool check(CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return true;
  const char *Msg = nullptr;
  if (Cu.cuGetErrorString)
    Cu.cuGetErrorString(R, &Msg);
  std::printf("FAIL: %s: error %d (%s)\n", What, int(R), Msg ? Msg : "?");
  return false;
}
#define CU(X)                                                                  \
  do {                                                                         \
    if (!check((X), #X))                                                       \
      return 1;                                                                \
  } while (0)

} // namespace

int main() {
  // 1. Build, validate each copy, lower, lint.
  Kernel K = buildKernel();
  std::printf("== builder: %zu async-copy instructions\n", K.Copies.size());
  for (const Inst &I : K.Copies) {
    Validation V = validate(I, {"sm_90a", 8, 6});
    std::printf("  %-4s %s\n", V.Ok ? "ok" : "BAD", V.Text.c_str());
    if (!V.Ok)
      return 1;
  }
  SourceBuffer Original("tma_kernel.ptx", K.Ptx);
  LowerResult Low = lowerModule(Original);
  std::printf("== lowering for sm_90a / PTX 8.0: %u instruction(s) rewritten, %u "
              "refused\n",
              Low.Rewritten, Low.Refused);
  if (!Low.Ok) {
    std::printf("%s", renderText(Original, Low.Diagnostics).c_str());
    return 1;
  }
  for (size_t P = Low.Text.find("cp.async.bulk.tensor"); P != std::string::npos;
       P = Low.Text.find("cp.async.bulk.tensor", P + 1)) {
    std::string Line = Low.Text.substr(P, Low.Text.find('\n', P) - P);
    std::printf("  %s\n", Line.c_str());
  }
  SourceBuffer Module("tma_kernel.ptx", Low.Text);
  LintResult Lint = lint(Module);
  std::printf("== ptxlint: %u error(s), %u warning(s)\n", Lint.Errors, Lint.Warnings);
  if (!Lint.Diagnostics.empty())
    std::printf("%s", renderText(Module, Lint.Diagnostics).c_str());
  if (Lint.Errors)
    return 1;
  if (const char *Dump = std::getenv("PTXLINT_DUMP_PTX")) {
    std::ofstream(Dump) << Low.Text;
    std::printf("   (PTX written to %s)\n", Dump);
  }

  // 2. Assemble with ptxas when there is one; otherwise the driver JITs PTX.
  std::vector<char> Image;
  std::string Cubin = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                      "/ptxlint-tma-example.cubin";
  if (auto Ptxas = findPtxas()) {
    PtxasOptions PO;
    PO.Arch = "sm_90a";
    PO.OutputFile = Cubin;
    PtxasResult R = runPtxas(Module, PO);
    std::printf("== ptxas: %s -> %s\n", R.Accepted ? "accepted" : "REJECTED",
                R.Command.c_str());
    if (!R.Diagnostics.empty())
      std::printf("%s", renderText(Module, R.Diagnostics).c_str());
    if (!R.Accepted)
      return 1;
    std::ifstream In(Cubin, std::ios::binary);
    Image.assign(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
    std::printf("   cubin: %zu bytes\n", Image.size());
  } else {
    std::printf("== ptxas not found: the driver will compile the PTX\n");
    Image.assign(Low.Text.begin(), Low.Text.end());
    Image.push_back('\0');
  }

  // 3. Run it.
  std::string Why;
  if (!Cu.load(Why)) {
    std::printf("SKIP: %s\n", Why.c_str());
    return 77;
  }
  CUresult Init = Cu.cuInit(0);
  int Count = 0;
  if (Init != CUDA_SUCCESS || Cu.cuDeviceGetCount(&Count) != CUDA_SUCCESS ||
      Count == 0) {
    std::printf("SKIP: no CUDA device (cuInit: %d)\n", int(Init));
    return 77;
  }
  CUdevice Dev;
  CU(Cu.cuDeviceGet(&Dev, 0));
  int Major = 0, Minor = 0, DriverVersion = 0;
  char Name[256] = {0};
  CU(Cu.cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev));
  CU(Cu.cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev));
  CU(Cu.cuDeviceGetName(Name, sizeof(Name), Dev));
  CU(Cu.cuDriverGetVersion(&DriverVersion));
  std::printf("== device: %s, sm_%d%d, driver %d\n", Name, Major, Minor, DriverVersion);
  if (Major != 9 || Minor != 0) {
    std::printf("SKIP: the kernel is built for sm_90a (Hopper)\n");
    return 77;
  }
  CUcontext Ctx;
  CU(Cu.cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CU(Cu.cuCtxSetCurrent(Ctx));
  CUmodule Mod;
  CU(Cu.cuModuleLoadData(&Mod, Image.data()));
  CUfunction Fn;
  CU(Cu.cuModuleGetFunction(&Fn, Mod, "tma_kernel"));

  const int Tiles = (Width / Box) * (Height / Box);
  std::vector<float> In(size_t(Width) * Height), Out(In.size(), -1.0f);
  std::vector<float> Acc(size_t(Tiles) * Box * Box);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float(int(I % 1000) - 500);
  for (size_t I = 0; I < Acc.size(); ++I)
    Acc[I] = float(I % 77);
  std::vector<float> AccInit = Acc;
  CUdeviceptr DIn, DOut, DAcc;
  CU(Cu.cuMemAlloc_v2(&DIn, In.size() * 4));
  CU(Cu.cuMemAlloc_v2(&DOut, Out.size() * 4));
  CU(Cu.cuMemAlloc_v2(&DAcc, Acc.size() * 4));
  CU(Cu.cuMemcpyHtoD_v2(DIn, In.data(), In.size() * 4));
  CU(Cu.cuMemcpyHtoD_v2(DOut, Out.data(), Out.size() * 4));
  CU(Cu.cuMemcpyHtoD_v2(DAcc, Acc.data(), Acc.size() * 4));

  // CUtensorMap carries its own alignas(128) (cuda.h), above the 64 bytes
  // cuTensorMapEncodeTiled needs; a weaker alignas here would be ill-formed.
  CUtensorMap MapIn, MapOut;
  cuuint64_t Dims[2] = {Width, Height};
  cuuint64_t Strides[1] = {Width * 4};
  cuuint32_t BoxDims[2] = {Box, Box};
  cuuint32_t ElemStrides[2] = {1, 1};
  for (auto [Map, Ptr] : {std::pair{&MapIn, DIn}, std::pair{&MapOut, DOut}})
    CU(Cu.cuTensorMapEncodeTiled(
        Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, reinterpret_cast<void *>(Ptr), Dims,
        Strides, BoxDims, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  void *Args[] = {&MapIn, &MapOut, &DAcc};
  CU(Cu.cuLaunchKernel(Fn, Width / Box, Height / Box, 1, Threads, 1, 1, 0, nullptr,
                       Args, nullptr));
  CU(Cu.cuCtxSynchronize());
  CU(Cu.cuMemcpyDtoH_v2(Out.data(), DOut, Out.size() * 4));
  CU(Cu.cuMemcpyDtoH_v2(Acc.data(), DAcc, Acc.size() * 4));

  size_t BadOut = 0, BadAcc = 0;
  for (int Y = 0; Y < Height; ++Y)
    for (int X = 0; X < Width; ++X) {
      size_t I = size_t(Y) * Width + X;
      float Want = 2 * In[I] + 1;
      if (Out[I] != Want && BadOut++ < 5)
        std::printf("  out[%d][%d] = %g, expected %g\n", Y, X, Out[I], Want);
      int TileIdx = (Y / Box) * (Width / Box) + X / Box;
      size_t A = size_t(TileIdx) * Box * Box + size_t(Y % Box) * Box + X % Box;
      float WantAcc = AccInit[A] + Want;
      if (Acc[A] != WantAcc && BadAcc++ < 5)
        std::printf("  acc[%zu] = %g, expected %g\n", A, Acc[A], WantAcc);
    }
  std::printf("== ran %d CTAs x %d threads on a %dx%d f32 tensor (%dx%d tiles)\n",
              (Width / Box) * (Height / Box), Threads, Width, Height, Box, Box);
  std::printf("   TMA load + 2x+1 + TMA store: %zu/%zu elements wrong\n", BadOut,
              Out.size());
  std::printf("   cp.reduce.async.bulk.add.f32:  %zu/%zu elements wrong\n", BadAcc,
              Acc.size());
  Cu.cuMemFree_v2(DIn);
  Cu.cuMemFree_v2(DOut);
  Cu.cuMemFree_v2(DAcc);
  std::printf(BadOut || BadAcc ? "FAIL\n" : "PASS\n");
  return BadOut || BadAcc ? 1 : 0;
}
