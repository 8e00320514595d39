// xqlab: the laboratory's command-line entry point. CLI11 parses; each
// subcommand (cli/commands.h) calls a library and prints. Every failure caused
// by the user's input is one line on stderr and exit status 2, printed by
// report() below, the only place that writes an error line.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <optional>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/usage_error.h"
#include "lab/common/meta.h"
#include "parallel/distributed/mpi_world.h"

namespace {

constexpr std::size_t kMaxErrorLine = 200;

// Control bytes escaped (\n, \xNN), then cut to kMaxErrorLine characters on a
// UTF-8 boundary with "..." marking the cut.
std::string error_line(std::string_view text) {
  std::string s;
  for (unsigned char c : text) {
    if (c == '\n') s += "\\n";
    else if (c == '\t') s += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      s += buf;
    } else s += char(c);
  }
  if (s.size() <= kMaxErrorLine) return s;
  std::size_t cut = kMaxErrorLine - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

int report(std::string_view command, std::string_view message, int status) {
  std::string prefix = "xqlab";
  if (!command.empty()) prefix += " " + std::string(command);
  std::fprintf(stderr, "%s\n", error_line(prefix + ": " + std::string(message)).c_str());
  return status;
}

int run_command(const xq::cli::Command& c) {
  const std::string name = c.app->get_name();
  try {
    return c.run();
  } catch (const xq::cli::UsageError& e) {
    return report(name, e.what(), 2);
  } catch (const std::invalid_argument& e) {  // the libraries' word for bad input
    return report(name, e.what(), 2);
  } catch (const xq::cli::Interrupted& e) {
    return report(name, e.what(), 130);
  } catch (const std::bad_alloc&) {
    return report(name, "out of memory", 3);
  } catch (const std::exception& e) {
    return report(name, e.what(), 3);
  }
}

std::string command_list(const std::vector<xq::cli::Command>& commands) {
  std::string s;
  for (const auto& c : commands) s += (s.empty() ? "" : ", ") + c.app->get_name();
  return s;
}

}  // namespace

int run(int argc, char** argv) {
  xq::cli::invocation().assign(argv, argv + argc);
  CLI::App app{"xqlab: a laboratory for parallel alpha-beta search in Xiangqi", "xqlab"};
  app.require_subcommand(1);
  const std::vector<xq::cli::Command> commands = {
      xq::cli::add_perft(app),     xq::cli::add_search(app),   xq::cli::add_lab(app),
      xq::cli::add_ablation(app),  xq::cli::add_solve(app),    xq::cli::add_stress(app),
      xq::cli::add_list(app),      xq::cli::add_report(app),   xq::cli::add_match(app),
      xq::cli::add_recommend(app), xq::cli::add_transfer(app), xq::cli::add_tune(app),
      xq::cli::add_evolve(app),    xq::cli::add_spsa(app),     xq::cli::add_engine(app),
      xq::cli::add_sim_calibrate(app)};
  // Set after the commands, which would otherwise each inherit it.
  app.footer("xqlab --version: the version, commit, build and compiler flags;"
             " xqlab help --markdown: the command reference (docs/commands.md).");
  const std::string usage = "usage: xqlab <command> [options]; commands: " +
                            command_list(commands) + " ('xqlab CMD --help' for each)";
  if (argc < 2) return report("", usage, 2);
  const std::string first = argv[1];
  if (first == "help") {
    if (argc > 2 && std::string_view(argv[2]) != "--markdown")
      return report("help", "unknown option '" + std::string(argv[2]) + "' (only --markdown)", 2);
    if (argc > 3) return report("help", "--markdown takes no arguments", 2);
    const std::string text = argc > 2 ? xq::cli::commands_markdown(commands) : app.help();
    std::printf("%s", text.c_str());
    return 0;
  }
  if (first == "--version") {
    if (argc > 2) return report("", "--version takes no arguments", 2);
    std::printf("%s\n", xq::lab::common::version_line().c_str());
    return 0;
  }
  std::string name;
  for (const auto& c : commands)
    if (c.app->check_name(first)) name = c.app->get_name();
  if (name.empty() && first.rfind("-", 0) != 0)
    return report("", "unknown command '" + first + "'; " + usage, 2);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return report(name, e.what(), 2);
  }
  for (const auto& c : commands)
    if (c.app->parsed()) return run_command(c);
  return report("", usage, 2);
}

// Under mpirun every process runs this binary: rank 0 runs the command, the
// other ranks serve the distributed backends it builds (parallel/distributed/).
int main(int argc, char** argv) {
  std::optional<xq::dist::MpiSession> mpi;
  try {
    mpi.emplace(argc, argv);
  } catch (const std::exception& e) {
    return report("", e.what(), 2);
  }
  if (mpi->serving()) return mpi->serve();
  return run(argc, argv);
}
