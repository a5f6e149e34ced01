"""The teaching views' computations, one lesson of the seeds per module.

Each module turns one idea of the lecture notes into numbers a page can draw: the naive
assumption against a full covariance (:mod:`covariance`), calibration, learning curves of
generative vs discriminative models (:mod:`curves`), underflow, the smoothing path (MLE vs
MAP), prior vs evidence, and the export of a worked example.
"""
