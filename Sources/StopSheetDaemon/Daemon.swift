// wired in Daemon.swift
