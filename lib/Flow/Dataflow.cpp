//===- Dataflow.cpp - CFG structure shared by the dataflow rules ---------===//

#include "Flow/Dataflow.h"

namespace ptxlint {
namespace flow {

SkipRegionMap::SkipRegionMap(const FlowFunction &FF) {
  size_t NB = FF.Blocks.size();
  Start.reserve(NB * 2 + 1);
  std::vector<uint32_t> NPreds(NB, 0);
  for (uint32_t B = 0; B < NB; ++B)
    for (uint32_t S : FF.Blocks[B].Succs)
      ++NPreds[S];
  // At most 16 blocks (a search stops at the 17th).
  uint32_t Region[16];
  // Per block: the number of the region search it was last added to
  // (membership without a search of Region).
  std::vector<uint32_t> Stamp(NB, 0);
  std::vector<uint32_t> Inside(NB, 0); ///< edges into a block from its region
  uint32_t Search = 0;
  for (uint32_t P = 0; P < NB; ++P) {
    const BlockSuccs &Ss = FF.Blocks[P].Succs;
    for (size_t X = 0; X < 2; ++X) {
      Start.push_back(uint32_t(Blocks.size()));
      if (Ss.size() != 2 || Ss[0] == Ss[1])
        continue;
      uint32_t J = Ss[X], First = Ss[1 - X];
      if (First == P)
        continue;
      // A block that J branches to is entered from outside the region (J
      // is never in it; J == P: only First, by P's own edge): the check
      // below would refuse the region, so the search stops at that block.
      // Most searches from a join block stop at once (J, the other arm,
      // branches to it).
      auto EnteredFromJ = [&, &JSuccs = FF.Blocks[J].Succs](uint32_t N) {
        if (J == P)
          return false;
        for (uint32_t S : JSuccs)
          if (S == N)
            return true;
        return false;
      };
      if (EnteredFromJ(First))
        continue;
      ++Search;
      size_t Size = 1;
      Region[0] = First;
      Stamp[First] = Search;
      bool Ok = true;
      for (size_t R = 0; Ok && R < Size; ++R) {
        const BlockSuccs &Rs = FF.Blocks[Region[R]].Succs;
        Ok = !Rs.empty(); // an exit inside: not a skippable region
        for (uint32_t N : Rs) {
          if (N == J || Stamp[N] == Search)
            continue;
          if (N == P || Size == 16 || EnteredFromJ(N)) {
            Ok = false;
            break;
          }
          Region[Size++] = N;
          Stamp[N] = Search;
        }
      }
      // Entered only from P (First) or from inside: every predecessor edge
      // of a region block comes from the region (First: all but P's).
      if (Ok) {
        for (size_t R = 0; R < Size; ++R)
          Inside[Region[R]] = 0;
        Inside[First] = 1;
        for (size_t R = 0; R < Size; ++R)
          for (uint32_t N : FF.Blocks[Region[R]].Succs)
            if (Stamp[N] == Search)
              ++Inside[N];
        for (size_t R = 0; R < Size; ++R)
          Ok = Ok && Inside[Region[R]] == NPreds[Region[R]];
      }
      if (Ok)
        Blocks.insert(Blocks.end(), Region, Region + Size);
    }
  }
  Start.push_back(uint32_t(Blocks.size()));
}

} // namespace flow
} // namespace ptxlint
