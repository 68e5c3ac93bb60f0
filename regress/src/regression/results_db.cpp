#include "dla/regression/results_db.h"

#include <sqlite3.h>

#include <ctime>
#include <stdexcept>

namespace dla::regression {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, started TEXT NOT NULL, finished TEXT,
  plan TEXT, level TEXT, launcher TEXT, git_revision TEXT, command_line TEXT, out_dir TEXT,
  total INTEGER DEFAULT 0, passed INTEGER DEFAULT 0, failed INTEGER DEFAULT 0, coverage REAL);
CREATE TABLE IF NOT EXISTS results (
  run_id INTEGER NOT NULL REFERENCES runs(id), job TEXT NOT NULL, entry TEXT, config TEXT,
  test TEXT, seed INTEGER, knobs TEXT, status TEXT, signature TEXT, summary TEXT,
  cycles INTEGER, wall_seconds REAL, test_seconds REAL, result_dir TEXT, repro TEXT,
  coverage_file TEXT, coverage_percent REAL, PRIMARY KEY (run_id, job));
CREATE TABLE IF NOT EXISTS coverage_bins (
  run_id INTEGER NOT NULL REFERENCES runs(id), covergroup TEXT, item TEXT, bin TEXT, kind TEXT,
  hits INTEGER, PRIMARY KEY (run_id, covergroup, item, bin));
CREATE TABLE IF NOT EXISTS coverage_groups (
  run_id INTEGER NOT NULL REFERENCES runs(id), covergroup TEXT, percent REAL, bins INTEGER,
  hit_bins INTEGER, samples INTEGER, PRIMARY KEY (run_id, covergroup));
CREATE TABLE IF NOT EXISTS coverage_config_groups (
  run_id INTEGER NOT NULL REFERENCES runs(id), config TEXT, covergroup TEXT, percent REAL, bins INTEGER,
  hit_bins INTEGER, samples INTEGER, PRIMARY KEY (run_id, config, covergroup));
CREATE TABLE IF NOT EXISTS closure (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id), coverage_before REAL, coverage_after REAL,
  holes_before INTEGER, holes_after INTEGER, screened INTEGER, rejected INTEGER, kept INTEGER);
CREATE TABLE IF NOT EXISTS code_coverage (
  run_id INTEGER NOT NULL REFERENCES runs(id), file TEXT, unit TEXT, lines INTEGER, lines_hit INTEGER,
  toggles INTEGER, toggles_hit INTEGER, PRIMARY KEY (run_id, file));
)sql";

// A prepared statement that finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("results store: ") + sqlite3_errmsg(db));
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& bind(int i, double v) {
    sqlite3_bind_double(s_, i, v);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("results store: ") + sqlite3_errmsg(db_));
  }
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  std::string text(int c) const {
    const auto* p = sqlite3_column_text(s_, c);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  int64_t integer(int c) const { return sqlite3_column_int64(s_, c); }
  double real(int c) const { return sqlite3_column_double(s_, c); }
  bool null(int c) const { return sqlite3_column_type(s_, c) == SQLITE_NULL; }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

RunInfo run_from(const Stmt& s) {
  RunInfo r;
  r.id = s.integer(0);
  r.started = s.text(1);
  r.finished = s.text(2);
  r.plan = s.text(3);
  r.level = s.text(4);
  r.launcher = s.text(5);
  r.git_revision = s.text(6);
  r.command_line = s.text(7);
  r.out_dir = s.text(8);
  r.total = s.integer(9);
  r.passed = s.integer(10);
  r.failed = s.integer(11);
  r.coverage = s.null(12) ? -1 : s.real(12);
  return r;
}

constexpr const char* kRunColumns =
    "id, started, finished, plan, level, launcher, git_revision, command_line, out_dir, total, passed, failed, coverage";

}  // namespace

ResultsDb::ResultsDb(const std::string& path) : path_(path) {
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error("cannot open results store '" + path + "': " + msg);
  }
  sqlite3_busy_timeout(db_, 5000);
  try {
    exec("PRAGMA journal_mode=WAL;");
    // No fsync per recorded test: WAL with synchronous=NORMAL survives a killed runner (what
    // --resume is for; outcome.json files are the record of finished tests), only a power cut
    // may lose the last commits.
    exec("PRAGMA synchronous=NORMAL;");
    exec(kSchema);
  } catch (const std::runtime_error& e) {
    sqlite3_close(db_);
    throw std::runtime_error("results store '" + path + "': " + e.what());
  }
}

ResultsDb::~ResultsDb() { sqlite3_close(db_); }

void ResultsDb::exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : "error";
    sqlite3_free(err);
    throw std::runtime_error(msg);
  }
}

int64_t ResultsDb::begin_run(const RunInfo& i) {
  Stmt s(db_, "INSERT INTO runs (started, plan, level, launcher, git_revision, command_line, out_dir, total) "
              "VALUES (?,?,?,?,?,?,?,?)");
  s.bind(1, i.started).bind(2, i.plan).bind(3, i.level).bind(4, i.launcher).bind(5, i.git_revision)
      .bind(6, i.command_line).bind(7, i.out_dir).bind(8, i.total);
  s.step();
  return sqlite3_last_insert_rowid(db_);
}

void ResultsDb::record(int64_t run_id, const Outcome& o) {
  Stmt s(db_, "INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  s.bind(1, run_id).bind(2, o.job_id).bind(3, o.entry).bind(4, o.config).bind(5, o.test)
      .bind(6, static_cast<int64_t>(o.seed)).bind(7, o.knobs.dump()).bind(8, o.status).bind(9, o.signature)
      .bind(10, o.summary).bind(11, static_cast<int64_t>(o.cycles)).bind(12, o.wall_seconds)
      .bind(13, o.test_seconds).bind(14, o.result_dir).bind(15, o.repro).bind(16, o.coverage_file)
      .bind(17, o.coverage_percent);
  s.step();
}

void ResultsDb::record_closure(int64_t run_id, const ClosureRow& c) {
  Stmt st(db_, "INSERT OR REPLACE INTO closure VALUES (?,?,?,?,?,?,?,?)");
  st.bind(1, run_id).bind(2, c.coverage_before).bind(3, c.coverage_after).bind(4, static_cast<int64_t>(c.holes_before))
      .bind(5, static_cast<int64_t>(c.holes_after)).bind(6, static_cast<int64_t>(c.screened))
      .bind(7, static_cast<int64_t>(c.rejected)).bind(8, static_cast<int64_t>(c.kept));
  st.step();
}

void ResultsDb::record_code_coverage(int64_t run_id, const std::vector<FileCodeCoverage>& files) {
  exec("BEGIN");
  try {
    Stmt del(db_, "DELETE FROM code_coverage WHERE run_id = ?");
    del.bind(1, run_id).step();
    Stmt ins(db_, "INSERT INTO code_coverage VALUES (?,?,?,?,?,?,?)");
    for (const FileCodeCoverage& f : files) {
      ins.bind(1, run_id).bind(2, f.file).bind(3, f.unit).bind(4, static_cast<int64_t>(f.lines))
          .bind(5, static_cast<int64_t>(f.lines_hit)).bind(6, static_cast<int64_t>(f.toggles))
          .bind(7, static_cast<int64_t>(f.toggles_hit));
      ins.step();
      ins.reset();
    }
    exec("COMMIT");
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
}

std::vector<FileCodeCoverage> ResultsDb::code_coverage(int64_t run_id) const {
  Stmt st(db_, "SELECT file, unit, lines, lines_hit, toggles, toggles_hit FROM code_coverage WHERE run_id = ? ORDER BY unit, file");
  st.bind(1, run_id);
  std::vector<FileCodeCoverage> out;
  while (st.step()) {
    FileCodeCoverage f;
    f.file = st.text(0);
    f.unit = st.text(1);
    f.lines = static_cast<size_t>(st.integer(2));
    f.lines_hit = static_cast<size_t>(st.integer(3));
    f.toggles = static_cast<size_t>(st.integer(4));
    f.toggles_hit = static_cast<size_t>(st.integer(5));
    out.push_back(f);
  }
  return out;
}

void ResultsDb::finish_run(int64_t run_id, const cov::CoverageData& merged,
                           const std::map<std::string, cov::CoverageData>& by_config) {
  exec("BEGIN");
  try {
    Stmt u(db_, "UPDATE runs SET finished = ?1, "
                "total = (SELECT COUNT(*) FROM results WHERE run_id = ?2), "
                "passed = (SELECT COUNT(*) FROM results WHERE run_id = ?2 AND status = 'pass'), "
                "failed = (SELECT COUNT(*) FROM results WHERE run_id = ?2 AND status != 'pass'), "
                "coverage = ?3 WHERE id = ?2");
    u.bind(1, utc_now()).bind(2, run_id);
    u.bind(3, merged.empty() ? -1.0 : merged.percent());
    u.step();
    Stmt del(db_, "DELETE FROM coverage_bins WHERE run_id = ?");
    del.bind(1, run_id).step();
    Stmt delg(db_, "DELETE FROM coverage_groups WHERE run_id = ?");
    delg.bind(1, run_id).step();
    Stmt bins(db_, "INSERT INTO coverage_bins VALUES (?,?,?,?,?,?)");
    Stmt groups(db_, "INSERT INTO coverage_groups VALUES (?,?,?,?,?,?)");
    for (const auto& [name, g] : merged.groups()) {
      groups.bind(1, run_id).bind(2, name).bind(3, g.percent()).bind(4, static_cast<int64_t>(g.normal_bins()))
          .bind(5, static_cast<int64_t>(g.hit_bins())).bind(6, static_cast<int64_t>(g.samples));
      groups.step();
      groups.reset();
      for (const cov::ItemData& i : g.items)
        for (const cov::BinData& b : i.bins) {
          bins.bind(1, run_id).bind(2, name).bind(3, i.name).bind(4, b.name).bind(5, std::string(cov::bin_kind_name(b.kind)))
              .bind(6, static_cast<int64_t>(b.hits));
          bins.step();
          bins.reset();
        }
    }
    Stmt delc(db_, "DELETE FROM coverage_config_groups WHERE run_id = ?");
    delc.bind(1, run_id).step();
    Stmt cgroups(db_, "INSERT INTO coverage_config_groups VALUES (?,?,?,?,?,?,?)");
    for (const auto& [config, data] : by_config)
      for (const auto& [name, g] : data.groups()) {
        cgroups.bind(1, run_id).bind(2, config).bind(3, name).bind(4, g.percent())
            .bind(5, static_cast<int64_t>(g.normal_bins())).bind(6, static_cast<int64_t>(g.hit_bins()))
            .bind(7, static_cast<int64_t>(g.samples));
        cgroups.step();
        cgroups.reset();
      }
    exec("COMMIT");
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
}

RunInfo ResultsDb::run(int64_t run_id) const {
  Stmt s(db_, (std::string("SELECT ") + kRunColumns + " FROM runs WHERE id = ?").c_str());
  s.bind(1, run_id);
  if (!s.step()) throw std::invalid_argument("results store '" + path_ + "' has no run " + std::to_string(run_id));
  return run_from(s);
}

std::vector<RunInfo> ResultsDb::runs(size_t last_n) const {
  Stmt s(db_, (std::string("SELECT ") + kRunColumns + " FROM runs WHERE finished IS NOT NULL ORDER BY id DESC LIMIT ?").c_str());
  s.bind(1, static_cast<int64_t>(last_n));
  std::vector<RunInfo> out;
  while (s.step()) out.insert(out.begin(), run_from(s));
  return out;
}

std::vector<Outcome> ResultsDb::outcomes(int64_t run_id) const {
  Stmt s(db_, "SELECT job, entry, config, test, seed, knobs, status, signature, summary, cycles, wall_seconds, "
              "test_seconds, result_dir, repro, coverage_file, coverage_percent FROM results WHERE run_id = ? "
              "ORDER BY rowid");
  s.bind(1, run_id);
  std::vector<Outcome> out;
  while (s.step()) {
    Outcome o;
    o.job_id = s.text(0);
    o.entry = s.text(1);
    o.config = s.text(2);
    o.test = s.text(3);
    o.seed = static_cast<uint64_t>(s.integer(4));
    o.knobs = nlohmann::json::parse(s.text(5), nullptr, false);
    o.status = s.text(6);
    o.signature = s.text(7);
    o.summary = s.text(8);
    o.cycles = static_cast<uint64_t>(s.integer(9));
    o.wall_seconds = s.real(10);
    o.test_seconds = s.real(11);
    o.result_dir = s.text(12);
    o.repro = s.text(13);
    o.coverage_file = s.text(14);
    o.coverage_percent = s.real(15);
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<GroupCoverage> ResultsDb::config_group_coverage(int64_t run_id) const {
  Stmt s(db_, "SELECT run_id, covergroup, percent, bins, hit_bins, config FROM coverage_config_groups WHERE run_id = ? "
              "ORDER BY config, covergroup");
  s.bind(1, run_id);
  std::vector<GroupCoverage> out;
  while (s.step()) out.push_back(GroupCoverage{s.integer(0), s.text(1), s.real(2), s.integer(3), s.integer(4), s.text(5)});
  return out;
}

std::vector<GroupCoverage> ResultsDb::group_coverage(int64_t run_id) const {
  Stmt s(db_, "SELECT run_id, covergroup, percent, bins, hit_bins FROM coverage_groups WHERE run_id = ? ORDER BY covergroup");
  s.bind(1, run_id);
  std::vector<GroupCoverage> out;
  while (s.step()) out.push_back(GroupCoverage{s.integer(0), s.text(1), s.real(2), s.integer(3), s.integer(4), {}});
  return out;
}

}  // namespace dla::regression
