// A declared counter (search/counters.h) as a lab document carries it: its
// spec as text, so that a reader (the report, a script) renders it without
// the program's registry; the median over runs of its sum over positions;
// and that sum as its Show says. One table per group, one column per
// counter: the text tables (cli/lab_print.cpp) and the report
// (lab/report/report_lab.cpp) render them alike.
#pragma once

#include <string>
#include <vector>

#include "lab/common/json.h"

namespace xq::lab::common {

struct CounterFigure {
  std::string group, name, unit, show, of, meaning;
  double sum = 0;
  double shown = 0;
  bool known = false;  // false: what it is divided by was zero or missing
};

void to_json(Json& j, const CounterFigure& f);
// A document's counter (throws nlohmann's exceptions on a malformed one).
CounterFigure counter_figure(const Json& j);

// Its column heading ("stolen_tasks/tasks", "msgs_sent/s") and cell ("-"
// when unknown; a share of the threads' time in percent, a mean time per
// event in microseconds).
std::string counter_heading(const CounterFigure& f);
std::string counter_cell(const CounterFigure& f);

// The groups of `rows`' counters in the order first met, and the counters of
// one group in the order first met (rows: each a configuration's counters).
std::vector<std::string> counter_groups(const std::vector<std::vector<CounterFigure>>& rows);
std::vector<CounterFigure> group_columns(const std::vector<std::vector<CounterFigure>>& rows,
                                         const std::string& group);
// The cell of the counter named `name` among `row`'s ("" when absent).
std::string cell_of(const std::vector<CounterFigure>& row, const std::string& name);

}  // namespace xq::lab::common
