#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "dla/regression/reports.h"

namespace dla::regression {

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += ' ';
        else out += c;
    }
  }
  return out;
}

std::string junit_xml(const ReportInput& in) {
  std::map<std::string, std::vector<const Outcome*>> suites;  // by plan entry
  for (const Outcome& o : in.outcomes) suites[o.entry].push_back(&o);
  auto count = [](const std::vector<const Outcome*>& v, bool errors) {
    size_t n = 0;
    for (const Outcome* o : v) n += errors ? (o->status != "pass" && o->status != "fail") : o->status == "fail";
    return n;
  };
  auto time_of = [](const std::vector<const Outcome*>& v) {
    double t = 0;
    for (const Outcome* o : v) t += o->wall_seconds;
    return t;
  };
  std::vector<const Outcome*> all;
  for (const Outcome& o : in.outcomes) all.push_back(&o);
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += fmt::format("<testsuites name=\"dlaverif {}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3f}\">\n",
                   xml_escape(in.run.plan + " " + in.run.level), all.size(), count(all, false), count(all, true),
                   time_of(all));
  for (const auto& [entry, v] : suites) {
    x += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(entry), v.size(), count(v, false), count(v, true), time_of(v));
    for (const Outcome* o : v) {
      x += fmt::format("    <testcase classname=\"dlaverif.{}.{}\" name=\"{} seed {}\" time=\"{:.3f}\"",
                       xml_escape(o->config), xml_escape(o->test), xml_escape(o->entry), o->seed, o->wall_seconds);
      if (o->passed()) {
        x += "/>\n";
        continue;
      }
      const char* tag = o->status == "fail" ? "failure" : "error";
      x += fmt::format(">\n      <{} message=\"{}\" type=\"{}\">{}\nrepro: {}\nresult: {}/{}</{}>\n    </testcase>\n", tag,
                       xml_escape(o->signature), xml_escape(o->status), xml_escape(o->summary), xml_escape(o->repro),
                       xml_escape(in.out_dir), xml_escape(o->result_dir), tag);
    }
    x += "  </testsuite>\n";
  }
  x += "</testsuites>\n";
  return x;
}

std::string bucket_of(const std::string& sig) {
  std::string out;
  for (size_t i = 0; i < sig.size();) {
    const bool hex = sig.compare(i, 2, "0x") == 0 && i + 2 < sig.size() && std::isxdigit(static_cast<unsigned char>(sig[i + 2]));
    const bool value = sig[i] == '=' && i + 1 < sig.size() && std::isdigit(static_cast<unsigned char>(sig[i + 1]));
    if (!hex && !value) {
      out += sig[i++];
      continue;
    }
    out += hex ? "0x#" : "=#";
    i += hex ? 2 : 1;
    while (i < sig.size() && std::isxdigit(static_cast<unsigned char>(sig[i]))) ++i;
  }
  return out;
}

std::vector<Bucket> failure_buckets(const std::vector<Outcome>& outcomes) {
  std::map<std::string, Bucket> by_sig;
  for (const Outcome& o : outcomes)
    if (!o.passed()) {
      const std::string key = bucket_of(o.signature);
      Bucket& b = by_sig[key];
      b.signature = key;
      b.outcomes.push_back(&o);
    }
  std::vector<Bucket> out;
  for (auto& [s, b] : by_sig) out.push_back(std::move(b));
  std::stable_sort(out.begin(), out.end(), [](const Bucket& a, const Bucket& b) { return a.outcomes.size() > b.outcomes.size(); });
  return out;
}

}  // namespace dla::regression
