# SPDX-License-Identifier: MIT
# Finds the OpenCV 4 modules the CLI needs: find_package(OpenCV) when OpenCVConfig.cmake exists, else imported
# targets built from the headers and libraries of Debian's per-module -dev packages (they ship no CMake config).
#
#   convolab_find_opencv(core imgproc imgcodecs)
#
# Defines the targets opencv_<module> (as OpenCV's own config does) and OpenCV_INCLUDE_DIRS.
function(convolab_find_opencv)
  set(modules ${ARGN})
  find_package(OpenCV 4 QUIET COMPONENTS ${modules})
  if(OpenCV_FOUND)
    set(OpenCV_INCLUDE_DIRS ${OpenCV_INCLUDE_DIRS} PARENT_SCOPE)
    return()
  endif()
  find_path(CONVOLAB_OPENCV_INCLUDE_DIR opencv2/core.hpp PATH_SUFFIXES opencv4)
  if(NOT CONVOLAB_OPENCV_INCLUDE_DIR)
    message(FATAL_ERROR "OpenCV 4 headers not found (Debian: apt-get install libopencv-core-dev libopencv-imgproc-dev "
                        "libopencv-imgcodecs-dev, or run scripts/install-deps.sh)")
  endif()
  foreach(m IN LISTS modules)
    if(TARGET opencv_${m})
      continue()
    endif()
    find_library(CONVOLAB_OPENCV_${m}_LIBRARY NAMES opencv_${m})
    if(NOT CONVOLAB_OPENCV_${m}_LIBRARY)
      message(FATAL_ERROR "OpenCV module '${m}' not found (Debian: apt-get install libopencv-${m}-dev)")
    endif()
    add_library(opencv_${m} SHARED IMPORTED GLOBAL)
    set_target_properties(opencv_${m} PROPERTIES IMPORTED_LOCATION ${CONVOLAB_OPENCV_${m}_LIBRARY}
                                                 INTERFACE_INCLUDE_DIRECTORIES ${CONVOLAB_OPENCV_INCLUDE_DIR})
    message(STATUS "OpenCV module ${m}: ${CONVOLAB_OPENCV_${m}_LIBRARY} (no OpenCVConfig.cmake; found by name)")
  endforeach()
  set(OpenCV_INCLUDE_DIRS ${CONVOLAB_OPENCV_INCLUDE_DIR} PARENT_SCOPE)
endfunction()
