# Script mode (cmake -P), run by the ppl_build_info target at every build: writes build_info.cpp with the source
# revision (`git describe --always --dirty`; null outside a git checkout) and the build type.
# configure_file rewrites the file only when its text changes, so a new commit recompiles this one file and
# relinks, and nothing else.
#   -DSOURCE_DIR=... -DOUTPUT=... -DTEMPLATE=... -DBUILD_TYPE=...
set(revision "")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    set(revision "")
  endif()
endif()
if(revision STREQUAL "")
  set(PPL_GIT_REVISION_LITERAL "nullptr")
else()
  set(PPL_GIT_REVISION_LITERAL "\"${revision}\"")
endif()
set(PPL_BUILD_TYPE "${BUILD_TYPE}")
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
