//! Where device data lives: a GPU or the host's CPU (a simulated device), and for GPU memory
//! the device's reset count when it was allocated.

/// A device that holds data: a GPU by ordinal, or the host's CPU, whose data is host memory
/// that the simulator and host images alike run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Home {
    Cuda(usize),
    /// The host's CPU; its index among `OFFLOAD_SIM_DEVICES` simulated devices (0 without).
    Simulator(usize),
}

impl Home {
    /// Whether data on the two devices is in one memory, where a copy between them is a copy
    /// within it: one GPU's, or the host's, which every simulated device uses.
    pub(crate) fn shares_memory_with(self, other: Home) -> bool {
        match (self, other) {
            (Home::Cuda(a), Home::Cuda(b)) => a == b,
            (Home::Simulator(_), Home::Simulator(_)) => true,
            _ => false,
        }
    }
}

impl std::fmt::Display for Home {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Home::Cuda(d) => write!(f, "device {d}"),
            Home::Simulator(d) => write!(f, "the CPU (device {d})"),
        }
    }
}

/// Where a [`DeviceBuffer`] lives, as its launch checks it: the device, and for a GPU the
/// device's reset count when the memory was allocated (a reset after a trap frees it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    pub(crate) home: Home,
    pub(crate) resets: u64,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.home.fmt(f)
    }
}
