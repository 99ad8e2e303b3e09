# Stands in for a Python without pyoidn: scripts/denoise_oidn.py must say so and exit 2.
raise ImportError("No module named 'pyoidn'")
