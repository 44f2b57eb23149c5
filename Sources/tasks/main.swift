print("tasks")
