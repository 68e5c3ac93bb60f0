// The built-in test generators (one file each).
#pragma once

#include "dla/test_generator.h"

namespace dla::stimulus {

TestGenerator make_regs_access_generator();
TestGenerator make_bdma_random_generator();
TestGenerator make_pdp_random_generator();
TestGenerator make_pdp_illegal_generator();
TestGenerator make_sdp_random_generator();
TestGenerator make_sdp_pdp_random_generator();
TestGenerator make_sdp_illegal_generator();
TestGenerator make_cdp_random_generator();
TestGenerator make_cdp_illegal_generator();
TestGenerator make_conv_random_generator();
TestGenerator make_conv_illegal_generator();
TestGenerator make_rubik_random_generator();
TestGenerator make_rubik_illegal_generator();

}  // namespace dla::stimulus
