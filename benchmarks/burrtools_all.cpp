// burrTxt2 -R -d, keeping every disassemblable assembly instead of BurrTools' ten with the most
// moves: it writes FILE.xmpuzzlettt with all of them (and their <separation> trees) and prints
// each one's level text, in the saved order, one per line. Built against BurrTools' library by
// benchmarks/burrtools_levels.py, which records what BurrTools answers for the tests.
// usage: burrtools_all FILE.xmpuzzle [-m]
#include "lib/puzzle.h"
#include "lib/problem.h"
#include "lib/solvethread.h"
#include "lib/solution.h"
#include "lib/disassembly.h"
#include "lib/voxel.h"
#include "tools/xml.h"
#include "tools/gzstream.h"
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <thread>

int main(int argc, char * argv[]) {
  if (argc < 2) { std::cerr << "usage: burrtools_all FILE [-m]\n"; return 2; }
  int par = solveThread_c::PAR_REDUCE | solveThread_c::PAR_DISASSM;
  if (argc > 2 && std::strcmp(argv[2], "-m") == 0) par |= solveThread_c::PAR_KEEP_MIRROR;
  std::istream * in = openGzFile(argv[1]);
  xmlParser_c parser(*in);
  puzzle_c puzzle(parser);
  delete in;
  for (unsigned int i = 0; i < puzzle.getNumberOfShapes(); i++) puzzle.getShape(i)->initHotspot();
  problem_c * problem = puzzle.getProblem(0);
  problem->removeAllSolutions();
  solveThread_c run(*problem, par);
  run.setSolutionLimits(100000000);  // 0 ("no limit") makes start() loop for ever in 0.7.1
  if (!run.start(false)) { std::cerr << "could not start the solver\n"; return 1; }
  while (run.currentAction() != solveThread_c::ACT_FINISHED && run.currentAction() != solveThread_c::ACT_ERROR)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (run.currentAction() == solveThread_c::ACT_ERROR) { std::cerr << "the solver failed\n"; return 1; }
  std::cout << "assemblies " << problem->getNumAssemblies() << "\nsolutions " << problem->getNumSolutions() << "\n";
  char text[1000];
  for (unsigned int i = 0; i < problem->getNumberOfSavedSolutions(); i++) {
    const disassembly_c * d = problem->getSavedSolution(i)->getDisassembly();
    d->movesText(text, sizeof(text));
    std::cout << "level " << text << " " << d->sumMoves() << "\n";
  }
  std::string out = std::string(argv[1]) + "ttt";
  std::ofstream stream(out.c_str());
  xmlWriter_c xml(stream);
  puzzle.save(xml);
  return 0;
}
