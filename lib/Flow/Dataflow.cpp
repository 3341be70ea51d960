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
  std::vector<uint32_t> Region;
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
      ++Search;
      Region.assign(1, First);
      Stamp[First] = Search;
      bool Ok = true;
      for (size_t R = 0; Ok && R < Region.size(); ++R) {
        const BlockSuccs &Rs = FF.Blocks[Region[R]].Succs;
        Ok = !Rs.empty(); // an exit inside: not a skippable region
        for (uint32_t N : Rs) {
          if (N == J || Stamp[N] == Search)
            continue;
          if (N == P || Region.size() == 16) {
            Ok = false;
            break;
          }
          Region.push_back(N);
          Stamp[N] = Search;
        }
      }
      // Entered only from P (First) or from inside: every predecessor edge
      // of a region block comes from the region (First: all but P's).
      if (Ok) {
        for (uint32_t Q : Region)
          Inside[Q] = 0;
        Inside[First] = 1;
        for (uint32_t Q : Region)
          for (uint32_t N : FF.Blocks[Q].Succs)
            if (Stamp[N] == Search)
              ++Inside[N];
        for (uint32_t Q : Region)
          Ok = Ok && Inside[Q] == NPreds[Q];
      }
      if (Ok)
        Blocks.insert(Blocks.end(), Region.begin(), Region.end());
    }
  }
  Start.push_back(uint32_t(Blocks.size()));
}

} // namespace flow
} // namespace ptxlint
