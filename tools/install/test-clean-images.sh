#!/usr/bin/env bash
#! Installs rkc's binary package (tools/package.sh) in clean Debian 12 and Ubuntu 24.04 root
#! file systems (debootstrap --variant=minbase: no compiler, no LLVM, no python) and compiles a
#! kernel there with it, the closest this machine (no container runtime) comes to a clean
#! image: each run is chroot'ed, with nothing of the host's mounted but /proc. Then it installs
#! python3-pip in the image as a user would, installs again (which fetches ptxas and libdevice
#! from PyPI) and compiles a kernel that calls exp. Needs root and the network (apt mirrors,
#! PyPI); the images are kept in target/images between runs.
#!
#! Usage: tools/install/test-clean-images.sh   (after tools/package.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
package=$(ls -t target/dist/rkc-*-x86_64-linux.tar.gz | head -1)
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null

kernel='use rkc_offload::prelude::*;

#[offload_kernel]
pub fn saxpy(n: usize, a: f32, x: &[f32], y: &mut [f32]) {
    // SAFETY: the builtin only reads this thread'"'"'s position.
    let i = unsafe { global_idx_x() };
    if let (Some(y), Some(x)) = (y.get_mut(i), x.get(i)) {
        if i < n {
            *y = a * x + *y;
        }
    }
}

#[offload_kernel]
pub fn softplus(x: &[f32], y: &mut [f32]) {
    // SAFETY: as above.
    let i = unsafe { global_idx_x() };
    if let Some(out) = y.get_mut(i) {
        *out = (1.0 + x[i].exp()).ln();
    }
}
'

run_in() { # image, command
  chroot "$1" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root /bin/sh -c "$2"
}

for spec in "debian-12 bookworm http://deb.debian.org/debian" "ubuntu-24.04 noble http://archive.ubuntu.com/ubuntu"; do
  set -- $spec
  name=$1 suite=$2 mirror=$3
  pristine="target/images/$name.pristine"
  image="target/images/$name"
  if [ ! -x "$pristine/bin/sh" ]; then
    rm -rf "$pristine"
    mkdir -p "$pristine"
    if [ "$suite" = noble ]; then
      # Debian's debootstrap knows Ubuntu's releases through the script of the first one it
      # supports; the archive is checked with Ubuntu's key when Debian ships it.
      script=/usr/share/debootstrap/scripts/gutsy
      if [ -f /usr/share/keyrings/ubuntu-archive-keyring.gpg ]; then
        check=--keyring=/usr/share/keyrings/ubuntu-archive-keyring.gpg
      else
        check=--no-check-gpg
      fi
    else
      script=/usr/share/debootstrap/scripts/$suite
      check=--keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    fi
    echo "== debootstrap $name (minbase)"
    debootstrap --variant=minbase --components=main,universe "$check" "$suite" "$pristine" "$mirror" "$script" >/dev/null
  fi
  # Every run starts from the image as debootstrap left it.
  rm -rf "$image"
  cp -a "$pristine" "$image"
  echo "== $name: $(chroot "$image" /bin/sh -c '. /etc/os-release; echo "$PRETTY_NAME"'), glibc $(chroot "$image" /usr/bin/ldd --version | head -1 | sed 's/.* //')"
  for tool in llvm-config-22 ld.lld mlir-opt-22 python3 cc; do
    if run_in "$image" "command -v $tool" >/dev/null 2>&1; then echo "   ($tool is present in the image)"; fi
  done
  mkdir -p "$image/tmp/rkc"
  tar -xzf "$package" -C "$image/tmp/rkc"
  printf '%s' "$kernel" > "$image/tmp/rkc/kernels.rs"
  mount -t proc proc "$image/proc" 2>/dev/null || true
  trap 'umount "'"$image"'/proc" 2>/dev/null || true' EXIT
  run_in "$image" 'sh /tmp/rkc/rkc-*/install.sh /opt/rkc'
  echo "-- rkc kernels.rs (saxpy only) with the default targets, without ptxas and ld.lld:"
  sed -n '1,13p' "$image/tmp/rkc/kernels.rs" > "$image/tmp/rkc/saxpy.rs"
  run_in "$image" 'cd /tmp/rkc && /opt/rkc/bin/rkc saxpy.rs -o saxpy.fatbin && /opt/rkc/bin/rkc inspect saxpy.fatbin | head -20'
  echo "-- the same with exp, before ptxas and libdevice are installed (expected to fail):"
  if run_in "$image" 'cd /tmp/rkc && /opt/rkc/bin/rkc kernels.rs -o kernels.fatbin'; then
    echo "unexpected success"
    exit 1
  fi
  echo "-- apt-get install python3-pip, install again, compile with exp:"
  cp /etc/resolv.conf "$image/etc/resolv.conf"
  run_in "$image" 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip ca-certificates >/dev/null'
  # Where this runs, HTTPS goes through a proxy whose certificate authority only the host's
  # bundle holds; pip in the image is pointed at that bundle (a user's machine needs nothing).
  cp /etc/ssl/certs/ca-certificates.crt "$image/tmp/rkc/host-ca.crt"
  run_in "$image" 'PIP_CERT=/tmp/rkc/host-ca.crt sh /tmp/rkc/rkc-*/install.sh /opt/rkc'
  run_in "$image" 'cd /tmp/rkc && /opt/rkc/bin/rkc kernels.rs -o kernels.fatbin && /opt/rkc/bin/rkc inspect kernels.fatbin | head -20'
  umount "$image/proc" 2>/dev/null || true
  trap - EXIT
done
