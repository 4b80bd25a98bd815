//! `OFFLOAD_TARGET=simulator` runs every launch on the CPU simulator even where a GPU is, and
//! counts no devices, as `disabled` does. In a process of its own: the runtime reads the
//! variable once.

#[test]
fn offload_target_simulator_means_the_simulator() {
    // SAFETY: the only test of this process, before anything reads the environment.
    unsafe { std::env::set_var("OFFLOAD_TARGET", "Simulator") };
    let device = rkc_offload::default_device().expect("the simulator");
    assert_eq!(device.backend, rkc_offload::Backend::CpuSimulator);
    assert_eq!(rkc_offload::offload_get_num_devices(), 0);
}
