// Dead relative links in the Markdown under docs/: `xqlab report --index`
// checks them beside the index, so one unit test catches a moved or removed
// document whichever page links it. It lives here rather than in a script
// because the index writes most of those links and the same test runs it.
#pragma once

#include <string>
#include <vector>

namespace xq::lab::report::targets {

struct MarkdownLink {
  int line = 0;
  std::string target;  // as written, anchor included
};

// The relative links of one Markdown text: inline links and images
// `[text](target)` and reference definitions `[label]: target`, outside
// fenced code blocks and code spans; http(s):, mailto: and pure `#anchor`
// links are left out.
std::vector<MarkdownLink> relative_links(const std::string& markdown);

struct DeadLink {
  std::string file;  // relative to the checked folder
  int line = 0;
  std::string target;
};

struct LinkCheck {
  int files = 0, links = 0;
  std::vector<DeadLink> dead;
};

// Every `.md` file under `folder` (recursively, in path order): each
// relative link's path (anchor and query dropped, %XX decoded) must name an
// existing file or folder, relative to the linking file (a leading `/`: to
// the folder's parent, the repository's root).
LinkCheck check_links(const std::string& folder);

}  // namespace xq::lab::report::targets
