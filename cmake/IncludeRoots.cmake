# SPDX-License-Identifier: MIT
# Per-library include roots (issue 37.5). A library under app/ is included as "<folder>/<header>.hpp"
# ("capture/frame_source.hpp"), and that path resolves only through the library: each library's PUBLIC include
# directory is a folder of its own in the build tree, <build>/include-roots/<target>/<folder>/, holding a
# symbolic link to each of its headers. So a target sees a library's headers exactly when it links the library
# (directly, or through a PUBLIC link), and a header that crosses between libraries without a link fails to
# compile until the link is declared here. A few headers are used without their library on purpose (header-only
# types): convolab_header_only() gives them an INTERFACE target of their own that names them one by one.
# (The sources stay where they are: the links are made at configure time; compiler messages name the link's
# path, <build>/include-roots/..., which points back at the file in app/.)

function(_convolab_root_links root folder)
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root}/${folder})
  foreach(header IN LISTS ARGN)
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${header} ${root}/${folder}/${header} SYMBOLIC)
  endforeach()
endfunction()

# convolab_include_root(TARGET FOLDER HEADER...): TARGET's headers, reachable as FOLDER/HEADER.
function(convolab_include_root target folder)
  set(root ${CMAKE_BINARY_DIR}/include-roots/${target})
  _convolab_root_links(${root} ${folder} ${ARGN})
  target_include_directories(${target} PUBLIC ${root})
endfunction()

# convolab_header_only(TARGET FOLDER HEADER...): an INTERFACE target for header-only types used beyond their
# library (the headers they include from beside them must be named too).
function(convolab_header_only target folder)
  add_library(${target} INTERFACE)
  set(root ${CMAKE_BINARY_DIR}/include-roots/${target})
  _convolab_root_links(${root} ${folder} ${ARGN})
  target_include_directories(${target} INTERFACE ${root})
endfunction()
