# Per-generator CPack settings: the .deb installs under /usr; the tarball unpacks to a
# relocatable tree (bin/, share/) with the binary and its desktop files.
if(CPACK_GENERATOR STREQUAL "DEB")
    set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
else()
    set(CPACK_PACKAGING_INSTALL_PREFIX "")
endif()
