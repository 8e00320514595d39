// The xqlab subcommands. Each add_* registers its options on the root app
// and returns the function that runs the command once parsing succeeded;
// the run function returns the exit status and throws UsageError or
// std::invalid_argument for bad input (main prints one line, exit 2).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace xq::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_perft(CLI::App& root);
Command add_search(CLI::App& root);
Command add_lab(CLI::App& root);
Command add_ablation(CLI::App& root);
Command add_solve(CLI::App& root);  // time to solution (lab/timing/solve.h)
Command add_stress(CLI::App& root);  // hash scheme race stress (hashing/stress.h)
Command add_list(CLI::App& root);
Command add_report(CLI::App& root);  // HTML page with SVG charts (lab/report/report.h)
Command add_evolve(CLI::App& root);     // the thesis's adaptive GA (lab/games/evolve.h)
Command add_spsa(CLI::App& root);       // SPSA as fishtest runs it (lab/games/spsa.h)
Command add_match(CLI::App& root);      // games between engines (lab/games/match.h)
Command add_recommend(CLI::App& root);  // which backend to ship (lab/games/recommend.h)
Command add_transfer(CLI::App& root);   // rankings per search profile (lab/games/transfer.h)
Command add_tune(CLI::App& root);  // split-parameter search (lab/timing/tune.h)
Command add_engine(CLI::App& root);  // UCI / UCCI / xboard engine (engine/protocol.h)
Command add_sim_calibrate(CLI::App& root);  // costs of the simulated machine (lab/timing/calibrate.h)

// What `xqlab list` prints (cmd_list.cpp).
std::string list_text();

// docs/commands.md, the command reference: every command's --help and
// `xqlab list`, as `xqlab help --markdown` prints it (help_doc.cpp).
std::string commands_markdown(const std::vector<Command>& commands);

}  // namespace xq::cli
