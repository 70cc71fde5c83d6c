# The Debian package (scripts/package.sh, scripts/make_deb.sh): binary package `tensorstudio` made
# by CPack from the install rules (both programs, the GPU plugin of CUDA builds, man pages,
# completions, the desktop entry, AppStream metadata, MIME types, icons and the example projects).
# Its dependencies come from dpkg-shlibdeps on the two programs, run by scripts/make_deb.sh and
# handed to cpack as CPACK_DEBIAN_PACKAGE_DEPENDS: the GPU plugin's CUDA libraries are left out,
# as the programs open the plugin only where they are installed.
set(TSTUDIO_PACKAGE_MAINTAINER "TensorStudio developers <developers@tensorstudio.org>" CACHE STRING
    "The Maintainer field of the Debian package")

# The Debian changelog and copyright files lintian asks for, in /usr/share/doc/tensorstudio. The
# changelog's date is the configure time (SOURCE_DATE_EPOCH when set, for reproducible packages).
string(TIMESTAMP TSTUDIO_PACKAGE_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(TSTUDIO_PACKAGE_DOC_DIR "${CMAKE_BINARY_DIR}/packaging/doc")
configure_file("${PROJECT_SOURCE_DIR}/packaging/changelog.Debian.in" "${TSTUDIO_PACKAGE_DOC_DIR}/changelog.Debian" @ONLY)
add_custom_command(
    OUTPUT "${TSTUDIO_PACKAGE_DOC_DIR}/changelog.Debian.gz"
    COMMAND gzip -9nkf "${TSTUDIO_PACKAGE_DOC_DIR}/changelog.Debian"
    DEPENDS "${TSTUDIO_PACKAGE_DOC_DIR}/changelog.Debian"
    COMMENT "Compressing the Debian changelog"
    VERBATIM)
add_custom_target(tstudio_package_doc ALL DEPENDS "${TSTUDIO_PACKAGE_DOC_DIR}/changelog.Debian.gz")
install(FILES "${TSTUDIO_PACKAGE_DOC_DIR}/changelog.Debian.gz" "${PROJECT_SOURCE_DIR}/packaging/copyright"
        DESTINATION share/doc/tensorstudio)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tensorstudio)
set(CPACK_PACKAGE_VENDOR "TensorStudio")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${TSTUDIO_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${TSTUDIO_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# dpkg-shlibdeps runs in scripts/make_deb.sh, on the programs alone.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openmpi-bin, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-numpy")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "IDE for TensorFlow 1.x dataflow graphs")
# The extended description: CPack puts the summary above it, indents each line by one space and
# writes an empty line as Debian's " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "TensorStudio composes a network visually, trains and evaluates it in-process
on the CPU or an NVIDIA GPU (or on many machines with MPI), shows its curves
live, profiles it on a timeline and steps through its ops in a debugger.

It opens the files TensorFlow 1.x writes: GraphDefs, MetaGraphs,
SavedModels, checkpoints, event files and TFRecords. The tstudio command
inspects, runs, trains, evaluates, exports, profiles and debugs them.

The GPU is used where the CUDA 13 runtime, cuBLAS and cuDNN 9 are installed;
the package does not depend on them.")
include(CPack)
