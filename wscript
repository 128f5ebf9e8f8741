# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# SPDX-License-Identifier: GPL-2.0-only
#
# waf build of the rdma module for ns-3 <= 3.35 source trees (contrib/rdma). ns-3 >= 3.36 uses
# CMakeLists.txt; test/check-build-lists.py checks that both list the same files.

import os

# GoogleTest program used to detect libgtest at configure time.
GTEST_CHECK_FRAGMENT = '''
#include <gtest/gtest.h>
TEST(RdmaConfigure, Links) { EXPECT_EQ(1, 1); }
int main(int argc, char** argv)
{
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
'''


def configure(conf):
    conf.env['RDMA_GTEST'] = conf.check_cxx(fragment=GTEST_CHECK_FRAGMENT,
                                            lib=['gtest', 'pthread'],
                                            uselib_store='GTEST',
                                            msg='Checking for GoogleTest (rdma tests)',
                                            mandatory=False)
    if not conf.env['RDMA_GTEST']:
        conf.report_optional_feature('RdmaTests', 'rdma module tests', False,
                                     'GoogleTest not found (Debian: googletest libgtest-dev)')


def build(bld):
    module = bld.create_ns3_module('rdma', ['core', 'network', 'internet'])
    module.source = [
        'model/rdma-bth-header.cc',
        'model/rdma-int-header.cc',
        'model/rdma-int-trailer.cc',
        'model/rdma-reth-header.cc',
        'model/rdma-aeth-header.cc',
        'model/rdma-atomic-eth-header.cc',
        'model/rdma-atomic-ack-eth-header.cc',
        'model/rdma-memory.cc',
        'model/rdma-memory-agent.cc',
        'model/rdma-icrc-trailer.cc',
        'model/pfc-pause-header.cc',
        'model/rdma-channel.cc',
        'model/rdma-net-device.cc',
        'model/rdma-link-flow-control.cc',
        'model/rdma-pfc-flow-control.cc',
        'model/rdma-credit-flow-control.cc',
        'model/rdma-link-framing.cc',
        'model/rdma-ualink-flit-framing.cc',
        'model/rdma-compressed-header-framing.cc',
        'model/rdma-link-retry.cc',
        'model/rdma-link-retry-trailer.cc',
        'model/rdma-wire-error-model.cc',
        'model/rdma-switch-mmu.cc',
        'model/rdma-switch.cc',
        'model/rdma-egress-processor.cc',
        'model/rdma-red-ecn-marker.cc',
        'model/rdma-int-inserter.cc',
        'model/rdma-load-balancer.cc',
        'model/rdma-ecmp-load-balancer.cc',
        'model/rdma-hpcc-ecmp-load-balancer.cc',
        'model/rdma-random-spray-load-balancer.cc',
        'model/rdma-round-robin-spray-load-balancer.cc',
        'model/rdma-flowlet-load-balancer.cc',
        'model/rdma-adaptive-load-balancer.cc',
        'model/rdma-congestion-control.cc',
        'model/rdma-fixed-rate-congestion-control.cc',
        'model/rdma-fixed-window-congestion-control.cc',
        'model/swift-congestion-control.cc',
        'model/dcqcn-congestion-control.cc',
        'model/falcon-congestion-control.cc',
        'model/dctcp-congestion-control.cc',
        'model/hpcc-congestion-control.cc',
        'model/timely-congestion-control.cc',
        'model/rdma-loss-recovery.cc',
        'model/rdma-go-back-n-loss-recovery.cc',
        'model/rdma-no-retransmit-loss-recovery.cc',
        'model/rdma-go-back-zero-loss-recovery.cc',
        'model/rdma-sack-loss-recovery.cc',
        'model/rdma-sequence-bitmap.cc',
        'model/rdma-sack-header.cc',
        'model/rdma-placement-header.cc',
        'model/rdma-ack-timestamp-header.cc',
        'model/rdma-periodic-error-model.cc',
        'model/rdma-transport-endpoint.cc',
        'model/rdma-queue-pair.cc',
        'model/rdma-nic.cc',
        'model/rdma-header-stack.cc',
        'model/rdma-packet-room.cc',
        'model/rdma-radix-scheduler.cc',
        'model/rdma-timing-wheel-scheduler.cc',
        'model/rdma-simulator-impl.cc',
        'model/rdma-path-selector.cc',
        'model/rdma-qp-path-selector.cc',
        'model/rdma-spray-path-selector.cc',
        'model/rdma-address-interleave-path-selector.cc',
        'model/rdma-flow-size-distribution.cc',
        'model/rdma-collective-algorithm.cc',
        'model/rdma-collective.cc',
        'model/rdma-direct-collective-algorithm.cc',
        'model/rdma-halving-doubling-collective-algorithm.cc',
        'model/rdma-ring-collective-algorithm.cc',
        'model/rdma-flow-generator.cc',
        'model/rdma-flow-replayer.cc',
        'model/rdma-bulk-send-application.cc',
        'model/rdma-wire-size.cc',
        'helper/rdma-link-helper.cc',
        'helper/rdma-helper.cc',
        'helper/rdma-routing-helper.cc',
        'helper/rdma-output-helper.cc',
        'helper/rdma-cc-helper.cc',
        'helper/rdma-loss-helper.cc',
        'helper/fat-tree-helper.cc',
        'helper/scale-up-helper.cc',
        'helper/rdma-memory-agent-helper.cc',
        'helper/hpcc-topology-reader.cc',
        'helper/hpcc-flow-reader.cc',
        'helper/hpcc-config-reader.cc',
        'helper/hpcc-line-cursor.cc',
        'helper/hpcc-config-mapper.cc',
        'helper/hpcc-scenario-helper.cc',
        'helper/rdma-option-checker.cc',
        'helper/rdma-conservation-monitor.cc',
        'helper/dcqcn-fluid-model.cc',
        'helper/rdma-flow-size-reader.cc',
        'helper/rdma-collective-helper.cc',
        'helper/rdma-flow-generator-helper.cc',
        'helper/rdma-flow-replayer-helper.cc',
        'helper/rdma-bulk-send-helper.cc',
        'helper/rdma-flow-monitor.cc',
        'helper/rdma-port-monitor.cc',
        'helper/rdma-sample-summary.cc',
        ]

    headers = bld(features='ns3header')
    headers.module = 'rdma'
    headers.source = [
        'model/rdma-bth-header.h',
        'model/rdma-int-header.h',
        'model/rdma-int-trailer.h',
        'model/rdma-reth-header.h',
        'model/rdma-aeth-header.h',
        'model/rdma-atomic-eth-header.h',
        'model/rdma-atomic-ack-eth-header.h',
        'model/rdma-memory.h',
        'model/rdma-memory-agent.h',
        'model/rdma-memory-operation.h',
        'model/rdma-icrc-trailer.h',
        'model/pfc-pause-header.h',
        'model/rdma-channel.h',
        'model/rdma-net-device.h',
        'model/rdma-link-flow-control.h',
        'model/rdma-pfc-flow-control.h',
        'model/rdma-credit-flow-control.h',
        'model/rdma-link-framing.h',
        'model/rdma-ualink-flit-framing.h',
        'model/rdma-compressed-header-framing.h',
        'model/rdma-link-retry.h',
        'model/rdma-link-retry-trailer.h',
        'model/rdma-wire-error-model.h',
        'model/rdma-switch-mmu.h',
        'model/rdma-switch.h',
        'model/rdma-egress-processor.h',
        'model/rdma-red-ecn-marker.h',
        'model/rdma-int-inserter.h',
        'model/rdma-load-balancer.h',
        'model/rdma-ecmp-load-balancer.h',
        'model/rdma-hpcc-ecmp-load-balancer.h',
        'model/rdma-random-spray-load-balancer.h',
        'model/rdma-round-robin-spray-load-balancer.h',
        'model/rdma-flowlet-load-balancer.h',
        'model/rdma-adaptive-load-balancer.h',
        'model/rdma-congestion-control.h',
        'model/rdma-fixed-rate-congestion-control.h',
        'model/rdma-fixed-window-congestion-control.h',
        'model/swift-congestion-control.h',
        'model/dcqcn-congestion-control.h',
        'model/falcon-congestion-control.h',
        'model/dctcp-congestion-control.h',
        'model/hpcc-congestion-control.h',
        'model/timely-congestion-control.h',
        'model/rdma-loss-recovery.h',
        'model/rdma-go-back-n-loss-recovery.h',
        'model/rdma-no-retransmit-loss-recovery.h',
        'model/rdma-go-back-zero-loss-recovery.h',
        'model/rdma-sack-loss-recovery.h',
        'model/rdma-sequence-bitmap.h',
        'model/rdma-fifo.h',
        'model/rdma-prefetch-cursor.h',
        'model/rdma-watched-trace.h',
        'model/rdma-sack-header.h',
        'model/rdma-placement-header.h',
        'model/rdma-ack-timestamp-header.h',
        'model/rdma-periodic-error-model.h',
        'model/rdma-transport-endpoint.h',
        'model/rdma-queue-pair.h',
        'model/rdma-nic.h',
        'model/rdma-header-stack.h',
        'model/rdma-packet-room.h',
        'model/rdma-radix-scheduler.h',
        'model/rdma-timing-wheel-scheduler.h',
        'model/rdma-simulator-impl.h',
        'model/rdma-path-selector.h',
        'model/rdma-qp-path-selector.h',
        'model/rdma-spray-path-selector.h',
        'model/rdma-address-interleave-path-selector.h',
        'model/rdma-work-request.h',
        'model/rdma-cc-state.h',
        'model/rdma-cc-feedback.h',
        'model/rdma-flow-size-distribution.h',
        'model/rdma-collective-algorithm.h',
        'model/rdma-collective.h',
        'model/rdma-direct-collective-algorithm.h',
        'model/rdma-halving-doubling-collective-algorithm.h',
        'model/rdma-ring-collective-algorithm.h',
        'model/rdma-flow-generator.h',
        'model/rdma-flow-replayer.h',
        'model/rdma-bulk-send-application.h',
        'model/rdma-wire-size.h',
        'model/hpcc-flow.h',
        'helper/rdma-link-helper.h',
        'helper/rdma-helper.h',
        'helper/rdma-routing-helper.h',
        'helper/rdma-output-helper.h',
        'helper/rdma-cc-helper.h',
        'helper/rdma-loss-helper.h',
        'helper/fat-tree-helper.h',
        'helper/scale-up-helper.h',
        'helper/rdma-memory-agent-helper.h',
        'helper/hpcc-topology-reader.h',
        'helper/hpcc-flow-reader.h',
        'helper/hpcc-config-reader.h',
        'helper/hpcc-line-cursor.h',
        'helper/hpcc-input-error.h',
        'helper/hpcc-config-mapper.h',
        'helper/hpcc-scenario-helper.h',
        'helper/rdma-option-checker.h',
        'helper/rdma-conservation-monitor.h',
        'helper/dcqcn-fluid-model.h',
        'helper/rdma-flow-size-reader.h',
        'helper/rdma-collective-helper.h',
        'helper/rdma-flow-generator-helper.h',
        'helper/rdma-flow-replayer-helper.h',
        'helper/rdma-bulk-send-helper.h',
        'helper/rdma-flow-monitor.h',
        'helper/rdma-port-monitor.h',
        'helper/rdma-sample-summary.h',
        ]

    incast_example = ''
    scale_up_example = ''
    if bld.env['ENABLE_EXAMPLES']:
        example = bld.create_ns3_program('rdma-incast', ['rdma', 'core', 'network', 'internet'])
        example.source = 'examples/rdma-incast.cc'
        example.target = 'examples/' + example.target
        incast_example = os.path.join(bld.path.get_bld().abspath(), example.target)
        minimal = bld.create_ns3_program('rdma-minimal', ['rdma', 'core', 'network', 'internet'])
        minimal.source = 'examples/rdma-minimal.cc'
        minimal.target = 'examples/' + minimal.target
        credits = bld.create_ns3_program('credits-vs-pfc', ['rdma', 'core', 'network', 'internet'])
        credits.source = 'examples/credits-vs-pfc.cc'
        credits.target = 'examples/' + credits.target
        kingman = bld.create_ns3_program('kingman', ['rdma', 'core', 'network', 'internet'])
        kingman.source = 'examples/kingman.cc'
        kingman.target = 'examples/' + kingman.target
        goodput = bld.create_ns3_program('goodput-vs-loss', ['rdma', 'core', 'network', 'internet'])
        goodput.source = 'examples/goodput-vs-loss.cc'
        goodput.target = 'examples/' + goodput.target
        dcqcn = bld.create_ns3_program('dcqcn-convergence', ['rdma', 'core', 'network', 'internet'])
        dcqcn.source = 'examples/dcqcn-convergence.cc'
        dcqcn.target = 'examples/' + dcqcn.target
        hpcc = bld.create_ns3_program('hpcc-compat', ['rdma', 'core', 'network', 'internet'])
        hpcc.source = 'examples/hpcc-compat.cc'
        hpcc.target = 'examples/' + hpcc.target
        spray = bld.create_ns3_program('ecmp-vs-spray', ['rdma', 'core', 'network', 'internet'])
        spray.source = 'examples/ecmp-vs-spray.cc'
        spray.target = 'examples/' + spray.target
        scaleup = bld.create_ns3_program('scale-up-allreduce',
                                         ['rdma', 'core', 'network', 'internet'])
        scaleup.source = 'examples/scale-up-allreduce.cc'
        scaleup.target = 'examples/' + scaleup.target
        scale_up_example = os.path.join(bld.path.get_bld().abspath(), scaleup.target)
        littles = bld.create_ns3_program('littles-law', ['rdma', 'core', 'network', 'internet'])
        littles.source = 'examples/littles-law.cc'
        littles.target = 'examples/' + littles.target
        memsem = bld.create_ns3_program('memory-semantics',
                                        ['rdma', 'core', 'network', 'internet'])
        memsem.source = 'examples/memory-semantics.cc'
        memsem.target = 'examples/' + memsem.target
        llr = bld.create_ns3_program('llr-vs-e2e', ['rdma', 'core', 'network', 'internet'])
        llr.source = 'examples/llr-vs-e2e.cc'
        llr.target = 'examples/' + llr.target
        storm = bld.create_ns3_program('pfc-storm', ['rdma', 'core', 'network', 'internet'])
        storm.source = 'examples/pfc-storm.cc'
        storm.target = 'examples/' + storm.target
        incast_cc = bld.create_ns3_program('incast-window-vs-rate',
                                           ['rdma', 'core', 'network', 'internet'])
        incast_cc.source = 'examples/incast-window-vs-rate.cc'
        incast_cc.target = 'examples/' + incast_cc.target
        convergence = bld.create_ns3_program('cc-convergence',
                                             ['rdma', 'core', 'network', 'internet'])
        convergence.source = 'examples/cc-convergence.cc'
        convergence.target = 'examples/' + convergence.target
        workload = bld.create_ns3_program('fat-tree-workload',
                                          ['rdma', 'core', 'network', 'internet'])
        workload.source = 'examples/fat-tree-workload.cc'
        workload.target = 'examples/' + workload.target
        interference = bld.create_ns3_program('collective-interference',
                                              ['rdma', 'core', 'network', 'internet'])
        interference.source = 'examples/collective-interference.cc'
        interference.target = 'examples/' + interference.target

    # The GoogleTest tests, run by the ns-3 TestSuite "rdma" (test/rdma-test-suite.cc).
    if bld.env['RDMA_GTEST']:
        module_test = bld.create_ns3_module_test_library('rdma')
        module_test.source = [
            'test/rdma-test-suite.cc',
            'test/rdma-header-test.cc',
            'test/rdma-telemetry-test.cc',
            'test/rdma-egress-test.cc',
            'test/rdma-credit-flow-control-test.cc',
            'test/rdma-link-framing-test.cc',
            'test/rdma-kingman-test.cc',
            'test/rdma-credits-vs-pfc-test.cc',
            'test/rdma-link-retry-test.cc',
            'test/rdma-link-test.cc',
            'test/rdma-switch-test.cc',
            'test/rdma-frame-equivalence-test.cc',
            'test/rdma-watched-trace-test.cc',
            'test/rdma-load-balance-test.cc',
            'test/rdma-nic-test.cc',
            'test/rdma-loss-recovery-test.cc',
            'test/rdma-cc-interface-test.cc',
            'test/rdma-swift-falcon-test.cc',
            'test/rdma-cc-allocation-test.cc',
            'test/rdma-packet-room-test.cc',
            'test/rdma-cc-dynamics-test.cc',
            'test/rdma-incast-test.cc',
            'test/rdma-validation-test.cc',
            'test/rdma-radix-scheduler-test.cc',
            'test/rdma-timing-wheel-scheduler-test.cc',
            'test/rdma-simulator-impl-test.cc',
            'test/rdma-lookahead-test.cc',
            'test/rdma-sequence-bitmap-test.cc',
            'test/rdma-fifo-test.cc',
            'test/rdma-prefetch-cursor-test.cc',
            'test/rdma-pcap-test.cc',
            'test/rdma-dcqcn-test.cc',
            'test/rdma-dctcp-test.cc',
            'test/rdma-hpcc-test.cc',
            'test/rdma-timely-test.cc',
            'test/rdma-topology-test.cc',
            'test/rdma-multi-plane-test.cc',
            'test/rdma-hpcc-compat-test.cc',
            'test/rdma-hpcc-scenario-test.cc',
            'test/rdma-pfc-storm-test.cc',
            'test/rdma-cc-examples-test.cc',
            'test/rdma-ecmp-spray-test.cc',
            'test/rdma-path-selector-test.cc',
            'test/rdma-endpoint-test.cc',
            'test/rdma-read-test.cc',
            'test/rdma-atomic-test.cc',
            'test/rdma-memory-agent-test.cc',
            'test/rdma-read-atomic-recovery-test.cc',
            'test/rdma-scale-up-test.cc',
            'test/rdma-scale-up-profile-test.cc',
            'test/rdma-robustness-test.cc',
            'test/rdma-traffic-test.cc',
            'test/rdma-collective-test.cc',
            'test/rdma-scenario-toolkit-test.cc',
            ]
        module_test.use.append('GTEST')
        module_test.defines = list(getattr(module_test, 'defines', [])) + [
            'RDMA_BUILD_DIR="%s"' % bld.bldnode.abspath(),
            'RDMA_SOURCE_DIR="%s"' % bld.path.abspath(),
            'RDMA_INCAST_EXAMPLE="%s"' % incast_example,
            'RDMA_SCALE_UP_EXAMPLE="%s"' % scale_up_example,
            ]
