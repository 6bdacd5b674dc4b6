# package.cmake — the manual pages, and what `cpack -G DEB` makes in the
# build folder: tengen_VERSION_ARCH.deb, one package with the program, its
# manual pages, libtengen (shared library, headers, pkg-config, CMake
# package) and the service (tengen.service, the daily copy's timer, the
# user tengen; packaging/).
#
# One package rather than tengen + libtengen0 + libtengen-dev: the program
# links libtengen statically (the board's hot loop stays non-PIC), so the
# shared library serves only programs built against it, and its ABI is
# 0.x, not yet one that other packages could depend on version by version.
# The split is for when it is.
#
# lintian 2.116 (bookworm) on it, and the answers: bogus-mail-host (set
# TENGEN_PACKAGE_MAINTAINER); no-copyright-file and no-changelog (the
# project has chosen no licence yet to state in a copyright file);
# link-to-shared-library-in-wrong-package, package-name-doesnt-match-sonames
# and pkg-config-unavailable-for-cross-compilation (one package, above;
# lib/, not the multiarch folder, so that tengen.pc stays relocatable).

# Manual pages from the program's own --help (cmake/man_page.sh), built
# with it; not where the program cannot run here (sanitizers, fuzzing,
# another architecture).
if(NOT TENGEN_SANITIZE AND NOT TENGEN_FUZZ AND NOT CMAKE_CROSSCOMPILING)
  set(TENGEN_MAN_PAGES "")
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/man)
  # every command of `tengen --help` (package.sh checks that none is missing)
  foreach(page tengen tengen-serve tengen-backup tengen-play tengen-gtp tengen-match tengen-score
          tengen-sgf tengen-tournament tengen-bench)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/man/${page}.1)
    add_custom_command(OUTPUT ${out} ${out}.gz
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cmake/man_page.sh $<TARGET_FILE:tengen_cli> ${page} ${out}
      DEPENDS tengen_cli ${CMAKE_CURRENT_SOURCE_DIR}/cmake/man_page.sh
      COMMENT "manual page ${page}(1) from --help" VERBATIM)
    list(APPEND TENGEN_MAN_PAGES ${out}.gz)
  endforeach()
  add_custom_target(tengen_man ALL DEPENDS ${TENGEN_MAN_PAGES})
  install(FILES ${TENGEN_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# The service's files name Debian's paths (/usr/bin/tengen, /etc/default,
# /var/lib/tengen): they go into the package only, never into a plain
# `cmake --install` (an install component left out of "all").
find_package(PkgConfig)
pkg_get_variable(TENGEN_UNIT_DIR systemd systemdsystemunitdir)
if(NOT TENGEN_UNIT_DIR)
  set(TENGEN_UNIT_DIR /usr/lib/systemd/system)
endif()
install(FILES packaging/tengen.service packaging/tengen-backup.service packaging/tengen-backup.timer
  DESTINATION ${TENGEN_UNIT_DIR} COMPONENT service EXCLUDE_FROM_ALL)
install(FILES packaging/tengen.default DESTINATION /etc/default RENAME tengen
  COMPONENT service EXCLUDE_FROM_ALL)

set(TENGEN_PACKAGE_MAINTAINER "tengen developers <tengen@localhost>" CACHE STRING
  "the Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tengen)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${TENGEN_PACKAGE_MAINTAINER})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# everything a plain install puts in place, and the service
set(CPACK_INSTALL_CMAKE_PROJECTS
  "${CMAKE_BINARY_DIR};tengen;ALL;/" "${CMAKE_BINARY_DIR};tengen;service;/")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Go (weiqi, baduk) player, referee and browser game server")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "tengen plays, referees and records Go by the Chinese rules and others:
tengen serve lets people play each other and engines in the browser,
every game kept in SQLite (tengen.service runs it as a system service,
tengen backup copies its database while it runs); tengen gtp speaks GTP
to Go programs; tengen match referees engine matches; tengen play plays
in the terminal.  Also libtengen, its headers, pkg-config and CMake files.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# net: what it installs is a network service (lintian: a package of section
# games keeps its programs in /usr/games)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends from the libraries the program and libtengen link (dpkg-shlibdeps)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# a shlibs file for libtengen.so.0, and ldconfig run after it is installed
# or removed (packaging/triggers)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${CMAKE_CURRENT_SOURCE_DIR}/packaging/postinst ${CMAKE_CURRENT_SOURCE_DIR}/packaging/prerm
  ${CMAKE_CURRENT_SOURCE_DIR}/packaging/postrm ${CMAKE_CURRENT_SOURCE_DIR}/packaging/conffiles
  ${CMAKE_CURRENT_SOURCE_DIR}/packaging/triggers)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
