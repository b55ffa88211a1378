# SPDX-License-Identifier: MIT
# Embeds the plain .cl files of kernels/ into a generated C++ source (OpenCV's cl2cpp idea), so the
# binaries never read kernels from the working directory and the .cl files stay plain OpenCL C.
function(convolab_embed_kernels out_cpp)
  set(cl_files ${ARGN})
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} "-DFILES=${cl_files}" -P ${CMAKE_SOURCE_DIR}/cmake/embed_kernels_script.cmake
    DEPENDS ${cl_files} ${CMAKE_SOURCE_DIR}/cmake/embed_kernels_script.cmake
    COMMENT "Embedding OpenCL kernels"
    VERBATIM)
endfunction()
