// The configuration a trace plays on without --config: its header, else its folder (NVDLA's
// folder-per-configuration layout), else the dialect's map; an unknown NVDLA-style folder is
// an input error naming it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "dla/trace_config.h"

namespace dla::trace {
namespace {

TraceTest test_in(const std::string& group, TraceDialect dialect = TraceDialect::Cfg) {
  TraceTest t;
  t.name = "pdp_8x8x64_2x2_min_int8_0";
  t.group = group;
  t.dialect = dialect;
  return t;
}

TEST(TraceConfig, TheFolderNamesTheConfiguration) {
  EXPECT_EQ(trace_config_for(test_in("nv_small"), std::nullopt), "small");
  EXPECT_EQ(trace_config_for(test_in("nvdlav1", TraceDialect::Txn), std::nullopt), "v1");
  EXPECT_EQ(trace_config_for(test_in("nv_full"), std::nullopt), "v1");
  for (const char* c : {"nv_small_256", "nv_small_256_full", "nv_medium_512", "nv_medium_1024_full", "nv_large"})
    EXPECT_EQ(trace_config_for(test_in(c), std::nullopt), c);
  EXPECT_EQ(trace_config_for(test_in("small"), std::nullopt), "small");  // our own names too
}

TEST(TraceConfig, TheHeaderWinsOverTheFolder) {
  EXPECT_EQ(trace_config_for(test_in("nv_small"), std::string("v1")), "v1");
  EXPECT_THROW(trace_config_for(test_in("nv_small"), std::string("nv_huge")), std::invalid_argument);
}

TEST(TraceConfig, OtherFoldersKeepTheDialectsDefault) {
  EXPECT_EQ(trace_config_for(test_in("trace_data"), std::nullopt), "small");
  EXPECT_EQ(trace_config_for(test_in("", TraceDialect::Txn), std::nullopt), "v1");
  EXPECT_EQ(trace_config_for(test_in("traceplayer", TraceDialect::Txn), std::nullopt), "v1");
}

TEST(TraceConfig, AnUnknownNvdlaFolderIsAnErrorNamingIt) {
  for (const char* folder : {"nv_huge", "nvdlav2"}) {
    try {
      trace_config_for(test_in(folder), std::nullopt);
      ADD_FAILURE() << folder << ": no exception";
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(std::string("trace folder '") + folder + "'"), std::string::npos) << m;
      EXPECT_NE(m.find("names no hardware configuration"), std::string::npos) << m;
      EXPECT_NE(m.find("nv_large"), std::string::npos) << m;
      EXPECT_NE(m.find("--config"), std::string::npos) << m;
    }
  }
}

}  // namespace
}  // namespace dla::trace
