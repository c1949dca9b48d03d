// Every planning algorithm under the plan checker: on random problems with
// one unbounded pool and with several bounded pools, against a brute-force
// optimum on small problems, on a known instance where largest-first is not
// optimal, deterministically, within a budget, and with clear failures when
// the pools are too small. The checker itself is shown to catch faults.
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <random>

#include "graph_builder.h"
#include "memory/algorithms/algorithms.h"
#include "memory/first_fit_placement.h"
#include "memory/lower_bound.h"
#include "memory/memory_plan.h"
#include "memory/plan_checker.h"
#include "memory/planner_registry.h"

using namespace loupe;
using namespace loupe::memory;

namespace {

PlanProblem randomProblem(std::mt19937& random, int buffers, int steps,
                          std::vector<MemoryPool> pools = defaultPools()) {
  PlanProblem problem;
  for (int i = 0; i < buffers; ++i) {
    WorkspaceBuffer b;
    b.tensor = i;
    b.size = 16 * static_cast<std::int64_t>(1 + random() % 16);
    b.firstStep = static_cast<int>(random() % static_cast<unsigned>(steps));
    b.lastStep = b.firstStep + static_cast<int>(random() % 4);
    problem.buffers.push_back(b);
  }
  problem.pools = std::move(pools);
  problem.lowerBound = liveBytesLowerBound(problem.buffers);
  return problem;
}

// The smallest plan over every placement order: the optimum for one pool.
std::int64_t bruteForceOptimum(const PlanProblem& problem) {
  std::vector<int> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::int64_t best = -1;
  do {
    const PlanResult r = placeInOrder(problem, order);
    if (best < 0 || r.totalBytes < best) best = r.totalBytes;
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

QString describe(const std::vector<std::string>& problems) {
  QString text;
  for (const auto& p : problems) text += QString::fromStdString(p) + "\n";
  return text;
}

// A chain of 128-byte buffers with one 16-byte buffer in the middle, where
// largest-first leaves a 16-byte gap: its plan is 272 bytes, the bound and
// the optimum 256 (ad01_int8's plan shows the same 272 against 256).
PlanProblem largestFirstIsNotOptimal() {
  PlanProblem problem;
  const std::int64_t sizes[] = {128, 128, 128, 128, 16, 128, 128, 128, 128};
  for (int i = 0; i < 9; ++i) {
    WorkspaceBuffer b;
    b.tensor = i;
    b.size = sizes[i];
    b.firstStep = i;
    b.lastStep = i + 1;
    problem.buffers.push_back(b);
  }
  problem.pools = defaultPools();
  problem.lowerBound = liveBytesLowerBound(problem.buffers);
  return problem;
}

}  // namespace

class PlannersTest : public QObject {
  Q_OBJECT

 private slots:
  void registryListsTheFourAlgorithms() {
    QStringList names;
    for (const PlannerInfo& p : planners())
      names << QString::fromUtf8(p.name.data(), p.name.size());
    QCOMPARE(names, (QStringList{"greedy_by_size", "greedy_by_conflicts", "hill_climb",
                                 "branch_and_bound"}));
    QVERIFY(findPlanner("hill_climb") != nullptr);
    QVERIFY(findPlanner("best") == nullptr);
    QVERIFY(findPlanner(kDefaultPlanner) != nullptr);
  }

  void everyPlannerPassesTheCheckerOnRandomProblems() {
    std::mt19937 random(7);
    for (int round = 0; round < 150; ++round) {
      const PlanProblem problem = randomProblem(random, 4 + round % 20, 12);
      for (const PlannerInfo& planner : planners()) {
        const PlanResult plan = planner.plan(problem);
        QVERIFY2(plan.fits, planner.name.data());
        QVERIFY2(checkPlan(problem, plan).empty(), qPrintable(describe(checkPlan(problem, plan))));
        QVERIFY(plan.totalBytes >= problem.lowerBound);
        if (plan.provedOptimal && plan.totalBytes != problem.lowerBound) {
          QCOMPARE(planner.name, std::string_view("branch_and_bound"));
        }
      }
    }
  }

  void branchAndBoundMatchesTheBruteForceOptimum() {
    std::mt19937 random(11);
    int belowGreedy = 0;
    for (int round = 0; round < 60; ++round) {
      const PlanProblem problem = randomProblem(random, 7, 6);
      const std::int64_t optimum = bruteForceOptimum(problem);
      const PlanResult exact = planBranchAndBound(problem);
      QVERIFY(exact.provedOptimal);
      QCOMPARE(exact.totalBytes, optimum);
      for (const PlannerInfo& planner : planners()) {
        QVERIFY(planner.plan(problem).totalBytes >= optimum);
      }
      if (planGreedyBySize(problem).totalBytes > optimum) ++belowGreedy;
    }
    // The search must have had work to do on some of them.
    QVERIFY2(belowGreedy > 0, "every random problem was solved by largest-first already");
  }

  void searchesCloseTheGapLargestFirstLeaves() {
    const PlanProblem problem = largestFirstIsNotOptimal();
    QCOMPARE(problem.lowerBound, std::int64_t{256});
    QCOMPARE(planGreedyBySize(problem).totalBytes, std::int64_t{272});
    const PlanResult exact = planBranchAndBound(problem);
    QCOMPARE(exact.totalBytes, std::int64_t{256});
    QVERIFY(exact.provedOptimal);
    const PlanResult climbed = planHillClimb(problem);
    QCOMPARE(climbed.totalBytes, std::int64_t{256});
  }

  void hillClimbIsDeterministicPerSeed() {
    std::mt19937 random(3);
    PlanProblem problem = randomProblem(random, 30, 20);
    const PlanResult first = planHillClimb(problem);
    const PlanResult again = planHillClimb(problem);
    QCOMPARE(again.offset, first.offset);
    QCOMPARE(again.evaluated, first.evaluated);
  }

  void branchAndBoundOutOfBudgetReportsItsGap() {
    std::mt19937 random(5);
    PlanProblem problem = randomProblem(random, 40, 10);
    problem.searchBudget = 3;
    const PlanResult plan = planBranchAndBound(problem);
    QVERIFY(plan.fits);
    QVERIFY(checkPlan(problem, plan).empty());
    if (plan.totalBytes > problem.lowerBound) QVERIFY(!plan.provedOptimal);
    QVERIFY(plan.evaluated <= 4);
  }

  void fastPoolFillsFirstAndTheRestSpills() {
    std::mt19937 random(13);
    for (int round = 0; round < 80; ++round) {
      std::vector<MemoryPool> pools = {{"dtcm", 128, 16}, {"sram", 4096, 32}};
      const PlanProblem problem = randomProblem(random, 12, 8, pools);
      for (const PlannerInfo& planner : planners()) {
        const PlanResult plan = planner.plan(problem);
        QVERIFY(plan.fits);
        QVERIFY2(checkPlan(problem, plan).empty(), qPrintable(describe(checkPlan(problem, plan))));
        QVERIFY(plan.poolBytes[0] <= 128);
      }
    }
    // A buffer that fits the fast pool goes there.
    PlanProblem one;
    one.buffers.push_back({0, {}, 64, 0, 0});
    one.pools = {{"dtcm", 128, 16}, {"sram", 4096, 16}};
    const PlanResult plan = planGreedyBySize(one);
    QCOMPARE(plan.pool[0], 0);
    QCOMPARE(plan.poolBytes, (std::vector<std::int64_t>{64, 0}));
  }

  void tooSmallPoolsAreReportedNotHidden() {
    PlanProblem problem = largestFirstIsNotOptimal();
    problem.pools = {{"sram", 200, 16}};
    for (const PlannerInfo& planner : planners()) {
      const PlanResult plan = planner.plan(problem);
      QVERIFY(!plan.fits);
      QVERIFY(plan.unplaced >= 0);
      QVERIFY(plan.unplacedBytes >= 128);
    }
  }

  void planMemoryNamesThePoolAndTheBytes() {
    test::GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    const int a = g.tensor("wide", ir::DType::Int8, {1, 1000});
    const int out = g.tensor("out", ir::DType::Int8, {1, 16});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Relu, {a}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    MemoryPlanOptions options;
    options.pools = parsePoolSpec("sram:size=512");
    try {
      planMemory(graph, options);
      QFAIL("a 1,008-byte tensor fitted a 512-byte pool");
    } catch (const MemoryPlanError& error) {
      const QString message = error.what();
      QVERIFY2(message.contains("pool sram (512 bytes)"), error.what());
      QVERIFY2(message.contains("\"wide\" (1,008 bytes"), error.what());
      QVERIFY2(message.contains("needs 1,008 bytes"), error.what());
      QVERIFY2(message.contains("496 bytes short of what the pools hold"), error.what());
    }
    options.planner = "fastest";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, planMemory(graph, options));
  }

  void checkerCatchesOverlapsOverflowAndMisalignment() {
    PlanProblem problem;
    problem.buffers = {{0, {}, 32, 0, 1}, {1, {}, 32, 1, 2}, {2, {}, 32, 3, 3}};
    problem.pools = {{"sram", 64, 16}};
    PlanResult plan;
    plan.fits = true;
    plan.pool = {0, 0, 0};
    plan.offset = {0, 16, 0};  // buffers 0 and 1 meet at step 1 and overlap
    plan.poolBytes = {48};
    plan.totalBytes = 48;
    auto problems = checkPlan(problem, plan);
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY(QString::fromStdString(problems[0]).contains("overlaps"));

    plan.offset = {0, 40, 0};  // misaligned and past the pool's 64 bytes
    plan.poolBytes = {72};
    plan.totalBytes = 72;
    problems = checkPlan(problem, plan);
    QCOMPARE(problems.size(), std::size_t{2});
    QVERIFY(QString::fromStdString(problems[0]).contains("not a multiple"));
    QVERIFY(QString::fromStdString(problems[1]).contains("outside pool sram"));

    plan.offset = {0, 32, 0};  // sound: 2 reuses 0's bytes at a later step
    plan.poolBytes = {64};
    plan.totalBytes = 64;
    QVERIFY(checkPlan(problem, plan).empty());
  }
};

QTEST_APPLESS_MAIN(PlannersTest)
#include "planners_test.moc"
