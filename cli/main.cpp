// xqlab: the laboratory's command-line entry point. Dispatches to one
// subcommand; every failure caused by the user's input is one line on stderr
// and exit status 2.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"

namespace {

struct Command {
  const char* name;
  int (*run)(const xq::cli::Argv&);
  const char* help;
};

const Command kCommands[] = {
    {"perft", xq::cli::cmd_perft,
     "--fen FEN|startpos --depth D [--divide] [--json]   count legal move paths"},
    {"stress", xq::cli::cmd_stress, "--hash SCHEME [--threads T] [--seconds S] [--entries N] [--ops N] [--json]   hash race stress"},
    {"list", xq::cli::cmd_list, "[--json]   list hash schemes, backends and valid pairs"},
    {"ablation", xq::cli::cmd_ablation, "[--suite FILE] [--depths 4..7|LIST] [--configs LIST] [--csv FILE] [--json]   search feature ablation"},
    {"search", xq::cli::cmd_search, "--fen FEN|startpos [--depth D|--movetime MS|--nodes N] [--algo A] [--features L] [--exact] [--backend B] [--hash S] [--threads T] [--hash-mb M] [--json]"},
    {"lab", xq::cli::cmd_lab, "[--suite FILE] [--backends L] [--hash L] [--threads L] [--depth D] [--runs R] [--csv FILE] [--json]   parallel speedup lab"},
};

void usage(std::FILE* out) {
  std::fprintf(out, "usage: xqlab <command> [options]\ncommands:\n");
  for (const Command& c : kCommands) std::fprintf(out, "  %-9s %s\n", c.name, c.help);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "help" || name == "--help" || name == "-h") {
    usage(stdout);
    return 0;
  }
  const std::vector<std::string> args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (name != c.name) continue;
    try {
      return c.run(args);
    } catch (const xq::cli::UsageError& e) {
      std::fprintf(stderr, "xqlab %s: %s\n", c.name, e.what());
      return 2;
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "xqlab %s: out of memory\n", c.name);
      return 3;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "xqlab %s: %s\n", c.name, e.what());
      return 3;
    }
  }
  std::fprintf(stderr, "xqlab: unknown command '%s' (try 'xqlab help')\n", name.c_str());
  return 2;
}
