# Sourced by the GPU scripts: makes the Debian packages in .deps/*.deb usable on a machine that cannot install them
# (a lent GPU machine with no registry). They are unpacked under /tmp/deps, not installed; a package the machine
# already has (its own Catch2, say) is skipped. Make the folder with
#   apt-get download catch2 libcli11-dev nlohmann-json3-dev libfmt-dev libfmt9 libseccomp-dev libseccomp2 \
#                    bubblewrap libre2-dev libre2-9 libssl-dev libssl3 libstemmer-dev libstemmer0d
# in .deps/. Without .deps/ nothing changes.
if ls .deps/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/deps
  for f in .deps/*.deb; do
    pkg=$(basename "$f" | cut -d_ -f1)
    case $pkg in
      catch2) { [ -d /usr/include/catch2 ] || [ -d /usr/local/include/catch2 ]; } && continue ;;
    esac
    dpkg -x "$f" /tmp/deps
  done
  # bubblewrap (the worker's namespaces) is found on PATH; libseccomp through the library path, which the grader
  # passes on to the sandboxed worker.
  export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  export PATH=/tmp/deps/usr/bin:$PATH
  # Debian keeps architecture-specific headers (OpenSSL's configuration.h) in a folder the compiler searches only
  # under /usr.
  export CPATH=/tmp/deps/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}
fi
